import type { AddressInfo } from 'node:net';
import { createSandboxServer, type SandboxLogger } from './http-server.ts';
import { type NetworkConfig, resolveNetworkConfig } from './network-config.ts';
import { appendLedger, loadSnapshot, saveSnapshot } from './persistence.ts';
import type { RpcContext } from './rpc-methods.ts';
import { HISTORY_LEDGERS, SandboxNode } from './sandbox-node.ts';

export type { SandboxLogger } from './http-server.ts';
export { DEFAULT_NETWORK_CONFIG, type NetworkConfig } from './network-config.ts';

export interface SorobanSandboxOptions {
  host?: string;
  /** 0 (default) picks a free port. */
  port?: number;
  /**
   * Persist state here (after every ledger close: a snapshot, or an empty ledger appended to a journal);
   * undefined keeps it in memory only.
   */
  dataDir?: string;
  /** Ledger close interval; default 1000 ms. 0 = only on closeLedger() (Friendbot closes its own). */
  ledgerCloseMs?: number;
  logger?: SandboxLogger;
  /** TTLs, fees, reserves… see network-config.ts for the (test-friendly) defaults. */
  network?: Partial<NetworkConfig>;
}

export interface SorobanSandbox {
  rpcUrl: string;
  friendbotUrl: string;
  networkPassphrase: string;
  /** Closes a ledger now (applying queued transactions); resolves to its sequence number. */
  closeLedger(): Promise<number>;
  /**
   * Moves the network's clock `seconds` ahead of this machine's, for tests of time bounds. Ledger
   * close times never go back, so it cannot be undone.
   */
  advanceClock(seconds: number): void;
  stop(): Promise<void>;
}

/**
 * Empty ledgers appended before the snapshot is rewritten: a whole history (about 33 minutes at one
 * ledger a second), after which the journal alone holds every ledger the snapshot would keep. Folding
 * every 300 rewrote the snapshot (2.2 MB once the history is full) every 5 minutes: 8.5 KB written a
 * ledger, 730 MB a day for an idle network. At this limit it is 2.2 KB a ledger; the journal is read
 * once, at start (2,000 lines).
 */
const JOURNAL_LIMIT = HISTORY_LEDGERS;

const silent: SandboxLogger = { info: () => {}, warn: () => {}, error: () => {} };

/** Starts a local Soroban network (JSON-RPC + Friendbot) backed by an in-process ledger. */
export async function startSorobanSandbox(opts: SorobanSandboxOptions = {}): Promise<SorobanSandbox> {
  const logger = opts.logger ?? silent;
  const config = resolveNetworkConfig(opts.network);
  const snapshot = opts.dataDir ? await loadSnapshot(opts.dataDir, config.passphrase) : undefined;
  const node = new SandboxNode(config, snapshot);
  node.onInternalError = (txHash, e) =>
    logger.error(
      `soroban sandbox: internal error applying ${txHash}: ${e instanceof Error ? e.stack : String(e)}`,
    );
  const host = opts.host ?? '127.0.0.1';

  // Ledger closes and snapshot writes are serialised so they never interleave. A close that changed
  // the state rewrites the snapshot; an empty one is appended to the journal, which is folded into a
  // new snapshot every JOURNAL_LIMIT ledgers. The first close after start writes a snapshot, so the
  // journal always continues the one on disk.
  let journaled = Number.POSITIVE_INFINITY;
  let chain: Promise<unknown> = Promise.resolve();
  const closeLedger = (): Promise<number> => {
    const next = chain.then(async () => {
      const seq = node.closeLedger();
      if (!opts.dataDir) return seq;
      try {
        if (node.lastCloseChangedState || journaled >= JOURNAL_LIMIT) {
          await saveSnapshot(opts.dataDir, node.snapshot());
          journaled = 0;
        } else {
          await appendLedger(opts.dataDir, node.latest);
          journaled++;
        }
      } catch (error) {
        // What is on disk may now miss this close: the next one writes a whole snapshot.
        journaled = Number.POSITIVE_INFINITY;
        throw error;
      }
      return seq;
    });
    chain = next.catch((e: unknown) => logger.error(`soroban sandbox: ledger close failed: ${String(e)}`));
    return next;
  };

  // friendbotUrl is only known once the port is bound; the context object is shared by reference.
  const ctx: RpcContext = { node, friendbotUrl: '' };
  const server = createSandboxServer(ctx, logger);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const urlHost = host.includes(':') ? `[${host}]` : host;
  const rpcUrl = `http://${urlHost}:${port}/`;
  const friendbotUrl = `http://${urlHost}:${port}/friendbot`;
  ctx.friendbotUrl = friendbotUrl;

  const interval = opts.ledgerCloseMs ?? 1000;
  const timer =
    interval > 0
      ? setInterval(() => {
          void closeLedger().catch(() => {});
        }, interval)
      : undefined;
  timer?.unref();
  if (!timer) ctx.closeNow = closeLedger;
  logger.info(`soroban sandbox listening on ${rpcUrl} (ledger ${node.latest.sequence})`);

  return {
    rpcUrl,
    friendbotUrl,
    networkPassphrase: config.passphrase,
    closeLedger,
    advanceClock(seconds) {
      node.clockAheadSeconds += seconds;
    },
    async stop() {
      clearInterval(timer);
      await chain;
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
