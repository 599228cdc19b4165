import { parseTransaction, recoverTransactionAddress } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { evmAccount, nativeSigning } from './evm-account.ts';

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
});
