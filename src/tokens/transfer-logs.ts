import { decodeEventLog, type Hex, toEventSelector, zeroAddress } from 'viem';
import { type TokenStandard, tokenAbi } from './token-standards.ts';

export type RawTransferLog = { topics: Hex[]; data: Hex; blockNumber?: Hex | null; removed?: boolean };

/** How a holder's balance of one token id changes over a range of blocks (0 for an ERC-20). */
export type BalanceDelta = { holder: string; tokenId: bigint; delta: bigint };

const TRANSFER = toEventSelector('Transfer(address,address,uint256)');
const TRANSFER_SINGLE = toEventSelector('TransferSingle(address,address,address,uint256,uint256)');
const TRANSFER_BATCH = toEventSelector('TransferBatch(address,address,address,uint256[],uint256[])');

/** The `topics[0]` filter of `eth_getLogs` for a standard's transfers. */
export function transferTopics(standard: TokenStandard): Hex[] {
  return standard === 'ERC20' || standard === 'ERC721' ? [TRANSFER] : [TRANSFER_SINGLE, TRANSFER_BATCH];
}

type Move = { from: string; to: string; tokenId: bigint; value: bigint };

function movesOf(standard: TokenStandard, log: RawTransferLog): Move[] {
  let decoded: { eventName: string; args: Record<string, unknown> };
  try {
    decoded = decodeEventLog({
      abi: tokenAbi(standard),
      topics: log.topics as never,
      data: log.data,
    }) as never;
  } catch {
    // Same selector, other layout (an ERC-721 Transfer read as an ERC-20 one): not this standard's event.
    return [];
  }
  const { args } = decoded;
  const from = String(args.from).toLowerCase();
  const to = String(args.to).toLowerCase();
  switch (decoded.eventName) {
    case 'Transfer':
      return standard === 'ERC721'
        ? [{ from, to, tokenId: args.tokenId as bigint, value: 1n }]
        : [{ from, to, tokenId: 0n, value: args.value as bigint }];
    case 'TransferSingle':
      return [{ from, to, tokenId: args.id as bigint, value: args.value as bigint }];
    case 'TransferBatch': {
      const ids = args.ids as bigint[];
      const values = args.values as bigint[];
      return ids.map((tokenId, index) => ({ from, to, tokenId, value: values[index] ?? 0n }));
    }
    default:
      return [];
  }
}

/**
 * The net balance changes that a range of transfer logs makes, per holder and token id. Mints come
 * from, and burns go to, the zero address, which is not a holder. Zero net changes are left out.
 */
export function balanceDeltas(standard: TokenStandard, logs: readonly RawTransferLog[]): BalanceDelta[] {
  const byKey = new Map<string, BalanceDelta>();
  const add = (holder: string, tokenId: bigint, delta: bigint) => {
    if (holder === zeroAddress || delta === 0n) return;
    const key = `${holder}:${tokenId}`;
    const entry = byKey.get(key);
    if (entry) entry.delta += delta;
    else byKey.set(key, { holder, tokenId, delta });
  };
  for (const log of logs) {
    if (log.removed) continue;
    for (const move of movesOf(standard, log)) {
      add(move.from, move.tokenId, -move.value);
      add(move.to, move.tokenId, move.value);
    }
  }
  return [...byKey.values()].filter((entry) => entry.delta !== 0n);
}
