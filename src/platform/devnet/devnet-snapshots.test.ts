import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { type AnvilInstance, rpcCall, startAnvil } from '../../../test/support/anvil.ts';
import { DevnetSnapshots } from './devnet-snapshots.ts';

// anvil's first dev account, unlocked: eth_sendTransaction needs no key.
const DEV_ACCOUNT = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const OTHER_ACCOUNT = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';

let anvil: AnvilInstance;
let stateDir: string;
const running: DevnetSnapshots[] = [];

beforeAll(async () => {
  anvil = await startAnvil({ blockTime: 0.3 });
  stateDir = mkdtempSync(join(tmpdir(), 'chaingate-snapshots-'));
});

afterEach(async () => {
  for (const snapshots of running.splice(0)) await snapshots.stop().catch(() => {});
});

afterAll(async () => {
  await anvil?.stop();
  rmSync(stateDir, { recursive: true, force: true });
});

const rpc = (method: string, params: unknown[] = []) => rpcCall(anvil.rpcUrl, method, params);

const blockNumber = async () => Number(await rpc('eth_blockNumber'));

function startSnapshots(
  options: { quietIntervalMs?: number; bytesPerSecond?: number } = {},
): DevnetSnapshots {
  const snapshots = new DevnetSnapshots({ rpcUrl: anvil.rpcUrl, stateDir, minIntervalMs: 300, ...options });
  running.push(snapshots);
  snapshots.start();
  return snapshots;
}

async function until(condition: () => boolean | Promise<boolean>, what: string): Promise<void> {
  for (let waited = 0; waited < 15_000; waited += 50) {
    if (await condition()) return;
    await sleep(50);
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** Waits until the chain grew by `blocks` blocks, and returns how many dumps happened meanwhile. */
async function dumpsWhileBlocksPass(snapshots: DevnetSnapshots, blocks: number): Promise<number> {
  const before = snapshots.dumps;
  const from = await blockNumber();
  await until(async () => (await blockNumber()) >= from + blocks, `${blocks} blocks`);
  // One more look after the last of those blocks, so a dump it would cause has happened.
  await sleep(700);
  return snapshots.dumps - before;
}

it('saves on its first look, then not for blocks without transactions', async () => {
  const snapshots = startSnapshots();
  await until(() => snapshots.dumps === 1, 'the first dump');
  expect(await dumpsWhileBlocksPass(snapshots, 6)).toBe(0);
});

it('saves soon after a block with a transaction', async () => {
  const snapshots = startSnapshots();
  await until(() => snapshots.dumps === 1, 'the first dump');
  await rpc('eth_sendTransaction', [{ from: DEV_ACCOUNT, to: OTHER_ACCOUNT, value: '0x1' }]);
  await until(() => snapshots.dumps === 2, 'a dump after the transaction');
  expect(await dumpsWhileBlocksPass(snapshots, 4)).toBe(0);
});

it('keeps dumps of transactions to the byte budget, but saves an announced change at once', async () => {
  // One byte a second: after the first dump (kilobytes), transactions wait for hours.
  const snapshots = startSnapshots({ bytesPerSecond: 1 });
  await until(() => snapshots.dumps === 1, 'the first dump');
  await rpc('eth_sendTransaction', [{ from: DEV_ACCOUNT, to: OTHER_ACCOUNT, value: '0x2' }]);
  expect(await dumpsWhileBlocksPass(snapshots, 4)).toBe(0);
  // The faucet's funding is not in any stored transaction: it does not wait.
  await rpc('anvil_setBalance', [OTHER_ACCOUNT, '0x4321']);
  snapshots.markDirty();
  await until(() => snapshots.dumps === 2, 'a dump after markDirty');
  // And the clean stop saves what waited.
  await rpc('eth_sendTransaction', [{ from: DEV_ACCOUNT, to: OTHER_ACCOUNT, value: '0x3' }]);
  expect(await dumpsWhileBlocksPass(snapshots, 2)).toBe(0);
  await snapshots.stop();
  expect(snapshots.dumps).toBe(3);
});

it('saves a state change announced with markDirty, though no block shows it', async () => {
  const snapshots = startSnapshots();
  await until(() => snapshots.dumps === 1, 'the first dump');
  await rpc('anvil_setBalance', [OTHER_ACCOUNT, '0x1234']);
  snapshots.markDirty();
  await until(() => snapshots.dumps === 2, 'a dump after markDirty');
});

it('saves when the chain went back (a revert), not only when it grew', async () => {
  const snapshot = await rpc('evm_snapshot');
  await until(async () => (await blockNumber()) >= 3, 'a few blocks');
  const snapshots = startSnapshots();
  await until(() => snapshots.dumps === 1, 'the first dump');
  // Blocks without transactions after the snapshot point: reverting drops them.
  const from = await blockNumber();
  await until(async () => (await blockNumber()) >= from + 2, 'blocks past the snapshot point');
  expect(await dumpsWhileBlocksPass(snapshots, 1)).toBe(0);
  await rpc('evm_revert', [snapshot]);
  await until(() => snapshots.dumps === 2, 'a dump after the revert');
});

it('saves blocks without transactions too, once the quiet interval passed', async () => {
  const snapshots = startSnapshots({ quietIntervalMs: 1_000 });
  await until(() => snapshots.dumps === 1, 'the first dump');
  await until(() => snapshots.dumps === 2, 'a dump of empty blocks after the quiet interval');
});

it('saves a long chain’s empty blocks only once they add a tenth to the chain saved last', async () => {
  // A stretch too long to inspect block by block counts as a change: the first dump saves it anyway.
  await rpc('anvil_mine', ['0x12c']);
  const snapshots = startSnapshots({ quietIntervalMs: 300 });
  await until(() => snapshots.dumps === 1, 'the first dump');
  // The block the dump holds, not the head now: blocks may come between the dump and this line.
  const saved = Number(snapshots.savedBlock);
  const tenth = Math.ceil(saved / 10);
  // The interval's own empty blocks, one at a time, each inspected by the next look.
  const grown = () => blockNumber().then((head) => head - saved);
  await until(async () => (await grown()) >= tenth / 2, 'half a tenth of empty blocks');
  await sleep(700);
  expect(snapshots.dumps).toBe(1);
  await until(() => snapshots.dumps === 2, 'a dump once the empty blocks add a tenth');
  expect(Number(snapshots.savedBlock) - saved).toBeGreaterThanOrEqual(tenth);
});

/**
 * An HTTP relay to anvil that holds the answer to `anvil_dumpState` back for `holdMs`, and answers 503
 * to the first `failFirst` requests whose body matches it, without passing them on.
 */
async function dumpHoldingRelay(target: string, holdMs: number, failFirst?: RegExp) {
  let failed = false;
  const server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString();
    if (failFirst?.test(body) && !failed) {
      failed = true;
      response.writeHead(503).end('busy');
      return;
    }
    const answer = await fetch(target, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    const text = await answer.text();
    if (body.includes('anvil_dumpState')) await sleep(holdMs);
    response.writeHead(answer.status, { 'content-type': 'application/json' }).end(text);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

it('keeps no dump during which a block with transactions was mined, but keeps one across empty blocks', async () => {
  // Anvil dumped its list of blocks, then its accounts: a block mined in between left a snapshot with
  // the block's effects and not the block. Here the dump's answer is held while a block comes.
  const relay = await dumpHoldingRelay(anvil.rpcUrl, 900);
  const dir = mkdtempSync(join(tmpdir(), 'chaingate-snapshots-'));
  const snapshots = new DevnetSnapshots({ rpcUrl: relay.url, stateDir: dir, minIntervalMs: 300 });
  try {
    const dumping = snapshots.dumpNow();
    await sleep(100);
    await rpc('eth_sendTransaction', [{ from: DEV_ACCOUNT, to: OTHER_ACCOUNT, value: '0x5' }]);
    expect(await dumping).toBe(false);
    expect(snapshots.straddledDumps).toBe(1);
    expect(existsSync(join(dir, 'state.json.gz'))).toBe(false);

    // The next dump meets only empty blocks (0.3 s apart, three or so while it is held): it is kept.
    const before = await blockNumber();
    expect(await snapshots.dumpNow()).toBe(true);
    expect(await blockNumber()).toBeGreaterThan(before);
    expect(snapshots.dumps).toBe(1);
    expect(existsSync(join(dir, 'state.json.gz'))).toBe(true);
  } finally {
    await snapshots.stop();
    await relay.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

it('holds mining every whole second during a dump, so a transfer sent meanwhile does not spoil it', async () => {
  // Under steady traffic every block has transactions: unheld, a dump longer than a block was never kept.
  const slow = await startAnvil({ blockTime: 1 });
  const relay = await dumpHoldingRelay(slow.rpcUrl, 1_500);
  const dir = mkdtempSync(join(tmpdir(), 'chaingate-snapshots-'));
  const snapshots = new DevnetSnapshots({ rpcUrl: relay.url, stateDir: dir, blockTimeSeconds: 1 });
  try {
    const dumping = snapshots.dumpNow();
    await sleep(200);
    const hash = await rpcCall(slow.rpcUrl, 'eth_sendTransaction', [
      { from: DEV_ACCOUNT, to: OTHER_ACCOUNT, value: '0x6' },
    ]);
    expect(await dumping).toBe(true);
    expect(existsSync(join(dir, 'state.json.gz'))).toBe(true);
    // Mining goes on at its own interval, and the transfer is mined.
    expect(await rpcCall(slow.rpcUrl, 'anvil_getIntervalMining')).toBe(1);
    await until(
      async () => (await rpcCall(slow.rpcUrl, 'eth_getTransactionReceipt', [hash])) !== null,
      'the transfer mined',
    );
  } finally {
    await snapshots.stop();
    await relay.close();
    await slow.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});

it('gives the mining back at the next look when giving it back after a dump failed', async () => {
  // Left held, the next dump found an interval not the configured one, held nothing, gave nothing
  // back: the devnet mined no block again.
  const slow = await startAnvil({ blockTime: 1 });
  const relay = await dumpHoldingRelay(slow.rpcUrl, 0, /evm_setIntervalMining","params":\[1\]/);
  const dir = mkdtempSync(join(tmpdir(), 'chaingate-snapshots-'));
  const errors: string[] = [];
  const snapshots = new DevnetSnapshots({
    rpcUrl: relay.url,
    stateDir: dir,
    minIntervalMs: 300,
    blockTimeSeconds: 1,
    onError: (message) => errors.push(message),
  });
  try {
    snapshots.start();
    await until(() => errors.length > 0, 'the failed end of the hold');
    await until(
      async () => (await rpcCall(slow.rpcUrl, 'anvil_getIntervalMining')) === 1,
      'mining given back',
    );
    const from = Number(await rpcCall(slow.rpcUrl, 'eth_blockNumber'));
    await until(async () => Number(await rpcCall(slow.rpcUrl, 'eth_blockNumber')) > from, 'a block');
  } finally {
    await snapshots.stop();
    await relay.close();
    await slow.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});
