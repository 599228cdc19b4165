import { xdr } from '@stellar/stellar-sdk';
import { RpcParamsError } from './errors.ts';
import { ttlEntry } from './ledger-changes.ts';
import { isTemporaryKey } from './ledger-state.ts';
import { getLedgers, getTransactions } from './rpc-history.ts';
import type { EventRecord, SandboxNode } from './sandbox-node.ts';
import { TxRejectedError } from './tx-validate.ts';

export interface RpcContext {
  node: SandboxNode;
  friendbotUrl: string;
  /** Set when ledgers only close on demand (ledgerCloseMs 0): Friendbot closes one itself. */
  closeNow?: () => Promise<number>;
}

type Params = Record<string, unknown>;
type Method = (ctx: RpcContext, params: Params) => unknown;

const VERSION = '0.1.0-chaingate-sandbox';

// Close times are strings in getEvents but numbers in getTransaction (as the SDK's types say).
function latestFields(node: SandboxNode, asString: boolean) {
  const t = (n: number) => (asString ? String(n) : n);
  return {
    latestLedger: node.latest.sequence,
    latestLedgerCloseTime: t(node.latest.closeTime),
    oldestLedger: node.oldest.sequence,
    oldestLedgerCloseTime: t(node.oldest.closeTime),
  };
}

function str(params: Params, name: string, method: string): string {
  const v = params[name];
  if (typeof v !== 'string' || v === '') throw new RpcParamsError(method, `missing string param '${name}'`);
  return v;
}

function getLedgerEntries(ctx: RpcContext, params: Params) {
  const keys = params.keys;
  if (!Array.isArray(keys)) throw new RpcParamsError('getLedgerEntries', "'keys' must be an array");
  const { node } = ctx;
  const seq = node.latest.sequence;
  const entries: Array<Record<string, unknown>> = [];
  for (const k of keys) {
    if (typeof k !== 'string') throw new RpcParamsError('getLedgerEntries', 'keys must be base64 strings');
    let key: xdr.LedgerKey;
    try {
      key = xdr.LedgerKey.fromXDR(k, 'base64');
    } catch {
      throw new RpcParamsError('getLedgerEntries', `cannot decode ledger key ${k}`);
    }
    if (key.switch().name === 'ttl') {
      const target = node.state.keyForTtlHash(key.ttl().keyHash().toString('hex'));
      const e = target ? node.state.get(target) : undefined;
      if (!target || !e || e.liveUntil === undefined) continue;
      const data = ttlEntry(target, e.liveUntil, e.lastModified).data();
      entries.push({ key: k, xdr: data.toXDR('base64'), lastModifiedLedgerSeq: e.lastModified });
      continue;
    }
    const canonical = key.toXDR('base64');
    const e = node.state.get(canonical);
    if (!e) continue;
    // Expired temporary entries are gone for clients even before eviction runs.
    if (isTemporaryKey(key) && e.liveUntil !== undefined && e.liveUntil < seq) continue;
    const data = xdr.LedgerEntry.fromXDR(e.entryXdr, 'base64').data();
    entries.push({
      key: k,
      xdr: data.toXDR('base64'),
      lastModifiedLedgerSeq: e.lastModified,
      ...(e.liveUntil !== undefined ? { liveUntilLedgerSeq: e.liveUntil } : {}),
    });
  }
  return { entries, latestLedger: seq };
}

function getTransaction(ctx: RpcContext, params: Params) {
  const hash = str(params, 'hash', 'getTransaction');
  const rec = ctx.node.getTx(hash);
  const base = { txHash: hash, ...latestFields(ctx.node, false) };
  if (!rec) return { status: 'NOT_FOUND', ...base };
  return {
    status: rec.status,
    ...base,
    applicationOrder: rec.applicationOrder,
    feeBump: false,
    envelopeXdr: rec.envelopeXdr,
    resultXdr: rec.resultXdr,
    resultMetaXdr: rec.resultMetaXdr,
    ledger: rec.ledger,
    createdAt: rec.createdAt,
    events: { contractEventsXdr: rec.contractEventsXdr, transactionEventsXdr: [] },
    ...(rec.diagnosticEventsXdr.length ? { diagnosticEventsXdr: rec.diagnosticEventsXdr } : {}),
  };
}

interface EventFilter {
  type?: string;
  contractIds?: string[];
  topics?: string[][];
}

function topicMatches(filter: string[], topics: string[]): boolean {
  for (let i = 0; i < filter.length; i++) {
    const f = filter[i];
    if (f === '**') return true;
    if (i >= topics.length) return false;
    if (f !== '*' && f !== topics[i]) return false;
  }
  return filter.length === topics.length;
}

function eventMatches(ev: EventRecord, filters: EventFilter[]): boolean {
  if (filters.length === 0) return true;
  return filters.some(
    (f) =>
      (!f.type || f.type === ev.type) &&
      (!f.contractIds?.length || f.contractIds.includes(ev.contractId)) &&
      (!f.topics?.length || f.topics.some((t) => topicMatches(t, ev.topic))),
  );
}

function getEvents(ctx: RpcContext, params: Params) {
  const { node } = ctx;
  const pagination = (params.pagination ?? {}) as { cursor?: string; limit?: number };
  const filters = (params.filters ?? []) as EventFilter[];
  const limit = Math.min(Math.max(pagination.limit ?? 100, 1), 10_000);
  const start = typeof params.startLedger === 'number' ? params.startLedger : undefined;
  const end = typeof params.endLedger === 'number' ? params.endLedger : undefined;
  if (!pagination.cursor && start === undefined)
    throw new RpcParamsError('getEvents', 'startLedger or cursor required');
  if (start !== undefined && start > node.latest.sequence) {
    throw new RpcParamsError('getEvents', `startLedger must be between the oldest and latest ledger`);
  }
  const out = node
    .allEvents()
    .filter((e) => (pagination.cursor ? e.id > pagination.cursor : e.ledger >= (start ?? 0)))
    .filter((e) => end === undefined || e.ledger < end)
    .filter((e) => eventMatches(e, filters))
    .slice(0, limit);
  const last = out[out.length - 1];
  const cursor =
    last?.id ?? `${(BigInt(node.latest.sequence + 1) << 32n).toString().padStart(19, '0')}-0000000000`;
  return {
    events: out.map((e) => ({ ...e, pagingToken: e.id })),
    cursor,
    ...latestFields(ctx.node, true),
  };
}

export const RPC_METHODS: Record<string, Method> = {
  getHealth: ({ node }) => ({
    status: 'healthy',
    latestLedger: node.latest.sequence,
    oldestLedger: node.oldest.sequence,
    ledgerRetentionWindow: 2000,
  }),
  getNetwork: ({ node, friendbotUrl }) => ({
    friendbotUrl,
    passphrase: node.config.passphrase,
    protocolVersion: node.config.protocolVersion,
  }),
  getVersionInfo: ({ node }) => ({
    version: VERSION,
    commitHash: '',
    buildTimestamp: '',
    captiveCoreVersion: 'chaingate-soroban-sandbox',
    protocolVersion: node.config.protocolVersion,
  }),
  getLatestLedger: ({ node }) => ({
    id: node.latest.hash,
    sequence: node.latest.sequence,
    protocolVersion: node.config.protocolVersion,
    closeTime: String(node.latest.closeTime),
    headerXdr: node.latest.headerXdr,
    metadataXdr: node.latest.metadataXdr,
  }),
  getFeeStats: ({ node }) => {
    const fee = String(node.config.baseFee);
    const dist = {
      max: fee,
      min: fee,
      mode: fee,
      p10: fee,
      p20: fee,
      p30: fee,
      p40: fee,
      p50: fee,
      p60: fee,
      p70: fee,
      p80: fee,
      p90: fee,
      p95: fee,
      p99: fee,
      transactionCount: '0',
      ledgerCount: 1,
    };
    return { sorobanInclusionFee: dist, inclusionFee: dist, latestLedger: node.latest.sequence };
  },
  getLedgerEntries,
  getTransaction,
  getTransactions,
  getLedgers,
  getEvents,
  sendTransaction: ({ node }, params) => {
    const res = node.submit(str(params, 'transaction', 'sendTransaction'));
    return {
      status: res.status,
      hash: res.hash,
      latestLedger: node.latest.sequence,
      latestLedgerCloseTime: node.latest.closeTime,
      ...(res.errorResultXdr ? { errorResultXdr: res.errorResultXdr } : {}),
    };
  },
  simulateTransaction: ({ node }, params) => {
    const tx = str(params, 'transaction', 'simulateTransaction');
    const authMode = typeof params.authMode === 'string' ? params.authMode : undefined;
    try {
      return node.simulate(tx, authMode);
    } catch (e) {
      // Undecodable envelopes are a params problem, as in stellar-rpc.
      if (e instanceof TxRejectedError) throw new RpcParamsError('simulateTransaction', e.message);
      throw e;
    }
  },
};
