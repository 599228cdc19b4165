import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Account, Keypair, Networks, Operation, TransactionBuilder } from '@stellar/stellar-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findFreePort } from '../../platform/net/free-port.ts';
import { buildStellarNetworks } from '../../platform/networks/stellar-networks.ts';
import { submitEnvelope } from './send-outcome.ts';

// Real sockets on loopback, each answering `sendTransaction` the way one kind of failure does. The
// question is whether the request may have reached the network (then the engine keeps the record).
type Behaviour = (request: IncomingMessage, response: ServerResponse) => void;

const behaviours: Record<string, Behaviour> = {
  pending: (request, response) =>
    answerJson(request, response, (id) => ({
      jsonrpc: '2.0',
      id,
      result: { status: 'PENDING', hash: '00'.repeat(32), latestLedger: 2, latestLedgerCloseTime: '0' },
    })),
  silent: (request) => request.resume(),
  cut: (request) => request.on('end', () => request.socket.destroy()).resume(),
  gateway502: (request, response) =>
    request.on('end', () => response.writeHead(502).end('bad gateway')).resume(),
  refused401: (request, response) =>
    request.on('end', () => response.writeHead(401).end('unauthorized')).resume(),
  limited429: (request, response) =>
    request.on('end', () => response.writeHead(429).end('slow down')).resume(),
  jsonRpcError: (request, response) =>
    answerJson(request, response, (id) => ({
      jsonrpc: '2.0',
      id,
      error: { code: -32602, message: 'invalid parameters' },
    })),
};

function answerJson(request: IncomingMessage, response: ServerResponse, body: (id: unknown) => unknown) {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    const { id } = JSON.parse(Buffer.concat(chunks).toString()) as { id: unknown };
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body(id)));
  });
}

const servers: Server[] = [];
const urls = new Map<string, string>();
let envelope: string;

beforeAll(async () => {
  for (const [name, behaviour] of Object.entries(behaviours)) {
    const server = createServer(behaviour);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    servers.push(server);
    urls.set(name, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  }
  urls.set('closedPort', `http://127.0.0.1:${await findFreePort()}`);
  const source = Keypair.random();
  const transaction = new TransactionBuilder(new Account(source.publicKey(), '1'), {
    fee: '100',
    networkPassphrase: Networks.TESTNET,
  })
    .addOperation(Operation.bumpSequence({ bumpTo: '5' }))
    .setTimeout(600)
    .build();
  transaction.sign(source);
  envelope = transaction.toXDR();
});
afterAll(async () => {
  for (const server of servers) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

async function outcomeFrom(name: string) {
  const networks = buildStellarNetworks({
    entries: [{ networkId: 9001, rpcUrl: urls.get(name), networkPassphrase: Networks.TESTNET }],
    local: null,
    timeoutMs: 500,
  });
  return submitEnvelope(networks.get(9001) as NonNullable<ReturnType<typeof networks.get>>, envelope);
}

describe('submitEnvelope', () => {
  it('reads PENDING as accepted', async () => {
    expect(await outcomeFrom('pending')).toEqual({ kind: 'accepted' });
  });

  it.each([
    ['silent', 'did not answer within 0.5 s', true],
    ['cut', 'closed the connection', true],
    ['gateway502', 'answered HTTP 502', true],
    ['closedPort', 'refused the connection', false],
    ['refused401', 'answered HTTP 401', false],
    ['limited429', 'answered HTTP 429', false],
    ['jsonRpcError', 'invalid parameters', false],
  ])(
    'takes %s as no answer (%s); may it have reached the network: %s',
    async (name, words, maybeDelivered) => {
      const outcome = await outcomeFrom(name);
      expect(outcome).toMatchObject({ kind: 'unreachable', maybeDelivered });
      expect(outcome.kind === 'unreachable' && outcome.message).toContain(words);
    },
  );
});
