import {
  Address,
  hash,
  Keypair,
  nativeToScVal,
  Operation,
  rpc,
  StrKey,
  scValToNative,
  xdr,
} from '@stellar/stellar-sdk';
import { keccak256 } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kitchenSinkWasm } from './support/contracts.ts';
import { HOST_FNS_LONG_SYMBOL, HOST_FNS_MESSAGE, hostFnsWasm } from './support/host-fns-contract.ts';
import { DappClient } from './support/sandbox-client.ts';

const u32 = (n: number) => nativeToScVal(n, { type: 'u32' });
const sym = (s: string) => nativeToScVal(s, { type: 'symbol' });
const u32Vec = (xs: number[]) => xdr.ScVal.scvVec(xs.map(u32));

describe('soroban sandbox: host functions through a real client', () => {
  let client: DappClient;
  let alice: Keypair;
  let contract: string;

  beforeAll(async () => {
    client = await DappClient.start();
    alice = await client.fund();
    contract = await client.deploy(alice, await hostFnsWasm());
  });
  afterAll(() => client.stop());

  async function sim(
    fn: string,
    args: xdr.ScVal[] = [],
  ): Promise<rpc.Api.SimulateTransactionSuccessResponse> {
    const op = Operation.invokeContractFunction({ contract, function: fn, args });
    const res = await client.server.simulateTransaction(await client.build(alice, op));
    if (!rpc.Api.isSimulationSuccess(res)) throw new Error(res.error);
    return res;
  }
  const call = async (fn: string, args: xdr.ScVal[] = []) =>
    scValToNative((await sim(fn, args)).result?.retval as xdr.ScVal);

  it('adds i128 values across the small/object boundary using 64-bit pieces', async () => {
    const big = 2n ** 100n;
    const i128 = (v: bigint) => nativeToScVal(v, { type: 'i128' });
    expect(await call('i128_add', [i128(big), i128(-1n)])).toBe(big - 1n);
    expect(await call('i128_add', [i128(-5n), i128(3n)])).toBe(-2n);
    expect(await call('i128_add', [i128(2n ** 64n - 1n), i128(1n)])).toBe(2n ** 64n);
  });

  it('does checked u256 arithmetic and u64 objects', async () => {
    const u256 = (v: bigint) => nativeToScVal(v, { type: 'u256' });
    expect(await call('u256_add', [u256(2n ** 200n), u256(7n)])).toBe(2n ** 200n + 7n);
    await expect(sim('u256_add', [u256(2n ** 256n - 1n), u256(1n)])).rejects.toThrow(/ArithDomain/);
    const u64 = (v: bigint) => nativeToScVal(v, { type: 'u64' });
    expect(await call('u64_double', [u64(2n ** 60n)])).toBe(2n ** 61n);
    expect(await call('u64_double', [u64(21n)])).toBe(42n);
  });

  it('builds maps with sorted keys and reads them back', async () => {
    const map = (await sim('map_two', [sym('zeta'), u32(1), sym('alpha'), u32(2)])).result
      ?.retval as xdr.ScVal;
    expect((map.map() ?? []).map((e) => scValToNative(e.key()))).toEqual(['alpha', 'zeta']);
    expect(await call('map_keys', [map])).toEqual(['alpha', 'zeta']);
    expect(await call('map_get', [map, sym('zeta')])).toBe(1);
    await expect(sim('map_get', [map, sym('nope')])).rejects.toThrow(/MissingValue/);
  });

  it('builds maps from linear memory only when keys are sorted', async () => {
    const map = (await sim('map_mem', [xdr.ScVal.scvBool(false)])).result?.retval as xdr.ScVal;
    expect((map.map() ?? []).map((e) => [scValToNative(e.key()), scValToNative(e.val())])).toEqual([
      ['a', 1],
      ['b', 2],
    ]);
    await expect(sim('map_mem', [xdr.ScVal.scvBool(true)])).rejects.toThrow(/Error\(Object, #InvalidInput\)/);
  });

  it('manipulates vectors', async () => {
    expect(await call('vec_front', [u32Vec([2, 3]), u32(1)])).toEqual([1, 2, 3]);
    expect(await call('vec_len', [u32Vec([5, 6, 7])])).toBe(3);
    expect(await call('vec_slice', [u32Vec([5, 6, 7, 8]), u32(1), u32(3)])).toEqual([6, 7]);
    expect(await call('vec_find', [u32Vec([5, 6, 7]), u32(7)])).toBe(2);
    expect(await call('vec_find', [u32Vec([5, 6, 7]), u32(9)])).toBeNull();
    await expect(sim('vec_slice', [u32Vec([1]), u32(0), u32(5)])).rejects.toThrow(/IndexBounds/);
  });

  it('copies bytes, strings and symbols through linear memory', async () => {
    const out = await call('bytes_mem', [nativeToScVal(Buffer.from('abc'))]);
    expect(Buffer.from(out).toString()).toBe('abcabc');
    expect(await call('greeting')).toBe(HOST_FNS_MESSAGE);
    expect(await call('long_sym')).toBe(HOST_FNS_LONG_SYMBOL);
  });

  it('emits log diagnostics', async () => {
    const res = await sim('log_it', [u32(5)]);
    const logs = res.events
      .map((e) => e.event().body().v0())
      .filter(
        (b) => b.topics()[0]?.switch().name === 'scvSymbol' && b.topics()[0]?.sym().toString() === 'log',
      );
    expect(logs.map((b) => scValToNative(b.data()))).toEqual([[HOST_FNS_MESSAGE, 5]]);
  });

  it('hashes with keccak256 and verifies ed25519 signatures', async () => {
    const data = Buffer.from('chaingate');
    expect(Buffer.from(await call('keccak', [nativeToScVal(data)])).toString('hex')).toBe(
      keccak256(data).slice(2),
    );
    const kp = Keypair.random();
    const sig = kp.sign(data);
    const args = (s: Buffer) => [nativeToScVal(kp.rawPublicKey()), nativeToScVal(data), nativeToScVal(s)];
    expect(await call('verify', args(sig))).toBeNull();
    const bad = Buffer.from(sig);
    bad[0] = (bad[0] ?? 0) ^ 1;
    await expect(sim('verify', args(bad))).rejects.toThrow(/Crypto/);
  });

  it('draws PRNG values within the range', async () => {
    const u64 = (v: bigint) => nativeToScVal(v, { type: 'u64' });
    const v = await call('rand', [u64(10n), u64(20n)]);
    expect(v).toBeGreaterThanOrEqual(10n);
    expect(v).toBeLessThanOrEqual(20n);
    expect(await call('rand', [u64(7n), u64(7n)])).toBe(7n);
  });

  it('knows addresses, time and value ordering', async () => {
    expect(await call('strkey', [nativeToScVal(Address.fromString(alice.publicKey()))])).toBe(
      alice.publicKey(),
    );
    expect(await call('me')).toBe(contract);
    const now = Number(await call('now'));
    expect(Math.abs(now - Date.now() / 1000)).toBeLessThan(60);
    const u64 = (v: bigint) => nativeToScVal(v, { type: 'u64' });
    expect(await call('cmp', [u64(1n), u64(2n ** 62n)])).toBe(-1);
    expect(await call('cmp', [u64(2n ** 62n), u64(2n ** 62n)])).toBe(0);
  });

  it('try_call turns a callee panic into an error value', async () => {
    const callee = await client.deploy(alice, await kitchenSinkWasm());
    expect(await call('try_boom', [nativeToScVal(Address.fromString(callee))])).toBe(true);
  });

  it('require_auth_for_args records exactly the given arguments', async () => {
    const bob = Keypair.random();
    const res = await sim('auth_args', [nativeToScVal(Address.fromString(bob.publicKey())), u32(11)]);
    const entry = res.result?.auth[0];
    expect(entry?.credentials().switch().name).toBe('sorobanCredentialsAddress');
    const fn = entry?.rootInvocation().function().contractFn();
    expect(fn?.functionName().toString()).toBe('auth_args');
    expect(fn?.args().map((a) => scValToNative(a))).toEqual([11]);
  });

  it('splits muxed addresses and reports executables', async () => {
    const base = Keypair.random();
    const muxed = StrKey.encodeMed25519PublicKey(
      Buffer.concat([base.rawPublicKey(), Buffer.from([0, 0, 0, 0, 0, 0, 1, 2])]),
    );
    expect(await call('muxed_parts', [nativeToScVal(Address.fromString(muxed))])).toEqual([
      base.publicKey(),
      258n,
    ]);
    const exec = await call('exec_of', [nativeToScVal(Address.fromString(contract))]);
    expect(exec[0]).toBe('Wasm');
    expect(Buffer.from(exec[1]).toString('hex')).toBe(hash(await hostFnsWasm()).toString('hex'));
    expect(await call('exec_of', [nativeToScVal(Address.fromString(alice.publicKey()))])).toEqual([
      'Account',
    ]);
  });
});
