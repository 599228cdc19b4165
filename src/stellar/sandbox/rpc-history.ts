import { xdr } from '@stellar/stellar-sdk';
import { RpcParamsError } from './errors.ts';
import type { RpcContext } from './rpc-methods.ts';
import type { TxRecord } from './sandbox-node.ts';

type Params = Record<string, unknown>;

interface Page {
  start: number;
  /** Exclusive TOID-style lower bound from a cursor. */
  after?: bigint;
  limit: number;
}

function page(method: string, params: Params, oldest: number, latest: number): Page {
  const pagination = (params.pagination ?? {}) as { cursor?: string; limit?: number };
  const limit = Math.min(Math.max(pagination.limit ?? 50, 1), 200);
  if (pagination.cursor) return { start: oldest, after: BigInt(pagination.cursor), limit };
  const start = params.startLedger;
  if (typeof start !== 'number')
    throw new RpcParamsError(method, 'startLedger or pagination.cursor required');
  if (start < oldest || start > latest) {
    throw new RpcParamsError(
      method,
      `startLedger must be between the oldest ledger ${oldest} and the latest ${latest}`,
    );
  }
  return { start, limit };
}

const txToid = (t: TxRecord) => (BigInt(t.ledger) << 32n) | (BigInt(t.applicationOrder) << 12n);

/** getTransactions: applied transactions in ledger/application order, TOID cursors. */
export function getTransactions(ctx: RpcContext, params: Params) {
  const { node } = ctx;
  const p = page('getTransactions', params, node.oldest.sequence, node.latest.sequence);
  const txs = node
    .allTxs()
    .filter((t) => (p.after !== undefined ? txToid(t) > p.after : t.ledger >= p.start))
    .sort((a, b) => Number(txToid(a) - txToid(b)))
    .slice(0, p.limit);
  const last = txs[txs.length - 1];
  return {
    transactions: txs.map((t) => ({
      status: t.status,
      txHash: t.hash,
      applicationOrder: t.applicationOrder,
      feeBump: false,
      envelopeXdr: t.envelopeXdr,
      resultXdr: t.resultXdr,
      resultMetaXdr: t.resultMetaXdr,
      ledger: t.ledger,
      createdAt: t.createdAt,
      diagnosticEventsXdr: t.diagnosticEventsXdr,
      events: { contractEventsXdr: t.contractEventsXdr, transactionEventsXdr: [] },
    })),
    latestLedger: node.latest.sequence,
    latestLedgerCloseTimestamp: node.latest.closeTime,
    oldestLedger: node.oldest.sequence,
    oldestLedgerCloseTimestamp: node.oldest.closeTime,
    cursor: last ? txToid(last).toString() : (p.after?.toString() ?? ''),
  };
}

/** getLedgers: closed ledgers with their header history entry and close meta. */
export function getLedgers(ctx: RpcContext, params: Params) {
  const { node } = ctx;
  const p = page('getLedgers', params, node.oldest.sequence, node.latest.sequence);
  const ledgers = node
    .allLedgers()
    .filter((l) => (p.after !== undefined ? BigInt(l.sequence) > p.after : l.sequence >= p.start))
    .slice(0, p.limit);
  const last = ledgers[ledgers.length - 1];
  return {
    ledgers: ledgers.map((l) => ({
      hash: l.hash,
      sequence: l.sequence,
      ledgerCloseTime: String(l.closeTime),
      headerXdr: new xdr.LedgerHeaderHistoryEntry({
        hash: Buffer.from(l.hash, 'hex'),
        header: xdr.LedgerHeader.fromXDR(l.headerXdr, 'base64'),
        ext: new xdr.LedgerHeaderHistoryEntryExt(0),
      }).toXDR('base64'),
      metadataXdr: l.metadataXdr,
    })),
    latestLedger: node.latest.sequence,
    latestLedgerCloseTime: node.latest.closeTime,
    oldestLedger: node.oldest.sequence,
    oldestLedgerCloseTime: node.oldest.closeTime,
    cursor: String(last?.sequence ?? p.after ?? ''),
  };
}
