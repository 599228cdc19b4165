import { randomUUID } from 'node:crypto';
import { keccak256, type LocalAccount } from 'viem';
import { insertSignedTransactions } from '../../src/evm/engine/transactions.repository.ts';
import type { Database } from '../../src/platform/db/database.ts';
import { randomHex } from './random-hex.ts';

/**
 * Stores a signed transfer record straight through the engine's insert (random hash and bytes, nothing
 * sent): for store-level tests of what the engine does with records. Answers its id and hash.
 */
export async function storeSignedTransfer(
  db: Database,
  record: {
    applicationId: string;
    chainId: number;
    sender: string;
    nonce: bigint;
    idempotencyKey?: string;
    /** A real signed transaction's hash and bytes, for a record whose transaction is sent. */
    signed?: { txHash: `0x${string}`; rawTx: `0x${string}` };
  },
): Promise<{ id: string; txHash: `0x${string}` }> {
  const id = randomUUID();
  const txHash = record.signed?.txHash ?? randomHex(32);
  const tx = {
    id,
    applicationId: record.applicationId,
    chainId: record.chainId,
    kind: 'transfer' as const,
    sender: record.sender,
    to: randomHex(20),
    contractAddress: null,
    value: 1n,
    input: '0x' as const,
    method: null,
    specId: null,
    myReference: null,
    idempotency: record.idempotencyKey ? { key: record.idempotencyKey, fingerprint: 'f' } : undefined,
  };
  const signed = {
    nonce: record.nonce,
    gasLimit: 21_000n,
    maxFeePerGas: 2n,
    maxPriorityFeePerGas: 1n,
    txHash,
    rawTx: record.signed?.rawTx ?? randomHex(110),
  };
  await db.transaction((q) => insertSignedTransactions(q, [{ tx, signed }]));
  return { id, txHash };
}

/**
 * A transfer of 1 wei from `account` signed for real and stored as the node had accepted it (`inserted`,
 * sender in lower case as the store keeps senders), not sent: for tests that give it to a node
 * themselves, or let the engine do so. Answers its id and signed bytes.
 */
export async function storeAcceptedTransfer(
  db: Database,
  record: { applicationId: string; account: LocalAccount; nonce: number },
): Promise<{ id: string; txHash: `0x${string}`; rawTx: `0x${string}` }> {
  const rawTx = await record.account.signTransaction({
    chainId: 31337,
    nonce: record.nonce,
    to: '0x000000000000000000000000000000000000b0d1',
    value: 1n,
    gas: 21_000n,
    maxFeePerGas: 10_000_000_000n,
    maxPriorityFeePerGas: 1n,
    type: 'eip1559',
  });
  const txHash = keccak256(rawTx);
  const { id } = await storeSignedTransfer(db, {
    applicationId: record.applicationId,
    chainId: 31337,
    sender: record.account.address.toLowerCase(),
    nonce: BigInt(record.nonce),
    signed: { txHash, rawTx },
  });
  await db.query(`UPDATE evm_transactions SET state = 'inserted' WHERE id = $1`, [id]);
  return { id, txHash, rawTx };
}
