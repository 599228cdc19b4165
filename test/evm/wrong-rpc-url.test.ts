import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../support/api-client.ts';
import { externalNetworkEnv, networkConfigFile } from '../support/external-network.ts';
import { startTestService, type TestService } from '../support/service.ts';

/**
 * An RPC URL with a wrong key answers HTTP 401 with a line of text (as Infura does), not JSON-RPC. The
 * answer stays 503 ERROR_NODE_UNREACHABLE, but it said "did not answer in time", which sent an operator
 * looking for a slow node instead of a wrong URL.
 */
describe('a network whose RPC URL has a wrong key', () => {
  let server: Server;
  let service: TestService;
  let call: ReturnType<typeof apiClient>;

  beforeAll(async () => {
    server = createServer((_, res) => {
      res.statusCode = 401;
      res.setHeader('content-type', 'text/plain');
      res.end('invalid project id\n');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v3/wrong-key`;
    service = await startTestService(externalNetworkEnv(networkConfigFile(url)));
    call = apiClient(service.url, service.auth);
  });
  afterAll(async () => {
    await service?.close();
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
  });

  it('answers views and sends 503 saying the node refused the request, and to check the key', async () => {
    const answers = [
      await call('GET', '/core/v1/evm/network/gasprice?network=31337'),
      await call('POST', '/core/v1/evm/chain/transfer', {
        sender: service.credentials.sender,
        recipient: '0x000000000000000000000000000000000000beef',
        blockchainNetwork: 31337,
        value: '1',
      }),
    ];
    for (const answer of answers) {
      expect(answer.status, answer.text).toBe(503);
      expect(answer.body.code).toBe('ERROR_NODE_UNREACHABLE');
      expect(answer.body.message).toMatch(/refused the request \(HTTP 401\): check the key in its RPC URL/);
      // The URL (and the key in it) never appears in an answer.
      expect(answer.text).not.toContain('wrong-key');
    }
  });
});
