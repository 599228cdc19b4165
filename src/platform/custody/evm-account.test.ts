import { keccak256, parseTransaction, recoverTransactionAddress } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { evmAccount, nativeSigning, signEip1559 } from './evm-account.ts';
import { keccak256Hex, nativeKeccak } from './keccak256.ts';

describe('evmAccount', () => {
  it('signs with libsecp256k1 here', () => {
    expect(nativeSigning()).toBe(true);
  });

  it('signs every transaction to the same bytes as viem (RFC 6979), recoverable to its address', async () => {
    for (let i = 0; i < 50; i++) {
      const key = generatePrivateKey();
      const fast = evmAccount(key);
      const reference = privateKeyToAccount(key);
      const transaction = {
        chainId: 31337,
        type: 'eip1559' as const,
        nonce: i,
        to: i % 2 ? null : ('0x000000000000000000000000000000000000dEaD' as const),
        value: BigInt(i) * 10n ** 17n,
        data: `0x${'ab'.repeat(i)}` as `0x${string}`,
        gas: 21_000n + BigInt(i * 1000),
        maxFeePerGas: 2_000_000_000n + BigInt(i),
        maxPriorityFeePerGas: 1_000_000_000n,
      };
      const signed = await fast.signTransaction(transaction);
      expect(signed).toBe(await reference.signTransaction(transaction));
      expect(await recoverTransactionAddress({ serializedTransaction: signed as never })).toBe(fast.address);
      expect(parseTransaction(signed).nonce).toBe(i);
    }
  });

  it('signs legacy transactions the same way too', async () => {
    const key = generatePrivateKey();
    const transaction = {
      chainId: 1,
      type: 'legacy' as const,
      nonce: 3,
      to: '0x000000000000000000000000000000000000dEaD' as const,
      value: 1n,
      gas: 21_000n,
      gasPrice: 7n,
    };
    expect(await evmAccount(key).signTransaction(transaction)).toBe(
      await privateKeyToAccount(key).signTransaction(transaction),
    );
  });

  it("signs EIP-1559 transactions natively to viem's bytes and hash, at every RLP length boundary", async () => {
    expect(nativeKeccak()).toBe(true);
    // Data lengths around RLP's one-byte/short/long string headers; values and nonces at 0 and at
    // byte boundaries; creations (to null) and calls.
    const dataLengths = [0, 1, 55, 56, 255, 256, 70_000];
    const integers = [0n, 1n, 127n, 128n, 255n, 256n, 2n ** 64n - 1n, 2n ** 256n - 1n];
    for (let i = 0; i < 40; i++) {
      const key = generatePrivateKey();
      const length = dataLengths[i % dataLengths.length] as number;
      const fields = {
        chainId: i % 3 ? 31337 : 1,
        nonce: BigInt(i * 37),
        to: i % 4 === 0 ? null : ('0x000000000000000000000000000000000000dEaD' as const),
        value: integers[i % integers.length] as bigint,
        data: `0x${(length === 1 ? '7f' : 'c3').repeat(length)}` as `0x${string}`,
        gas: 21_000n + BigInt(i),
        // The tip may not exceed the fee cap (viem refuses that).
        maxFeePerGas: (integers[(i + 5) % integers.length] as bigint) / 2n + BigInt(i),
        maxPriorityFeePerGas: (integers[(i + 5) % integers.length] as bigint) / 2n,
      };
      const signed = await signEip1559(evmAccount(key), fields);
      const reference = await privateKeyToAccount(key).signTransaction({
        ...fields,
        type: 'eip1559',
        nonce: Number(fields.nonce),
      });
      expect(signed.rawTx).toBe(reference);
      expect(signed.txHash).toBe(keccak256(reference));
      // An account from elsewhere goes through viem and answers the same.
      expect(await signEip1559(privateKeyToAccount(key), fields)).toEqual(signed);
    }
  });

  it('hashes with keccak-256 (not SHA3-256) as viem does', () => {
    for (const length of [0, 1, 135, 136, 137, 1000]) {
      const bytes = new Uint8Array(length).map((_, i) => (i * 31) & 0xff);
      expect(keccak256Hex(bytes)).toBe(keccak256(bytes));
    }
  });

  it('refuses fields it cannot serialize instead of signing wrong bytes', async () => {
    const account = evmAccount(generatePrivateKey());
    const fields = {
      chainId: 31337,
      nonce: 0n,
      to: null,
      value: 0n,
      data: '0x' as `0x${string}`,
      gas: 21_000n,
      maxFeePerGas: 2n,
      maxPriorityFeePerGas: 1n,
    };
    await expect(signEip1559(account, { ...fields, value: -1n })).rejects.toThrow(/negative/);
    await expect(signEip1559(account, { ...fields, data: '0xabc' })).rejects.toThrow(/hex/);
    await expect(signEip1559(account, { ...fields, to: '0x1234' })).rejects.toThrow(/address/);
  });
});
