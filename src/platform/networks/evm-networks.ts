import { type Chain, createPublicClient, defineChain, type PublicClient, type Transport } from 'viem';
import type { EvmNetworkEntry } from '../config/config-file.ts';
import { ConfigError } from '../config/config-file.ts';
import { DEVNET_CHAIN_ID, findKnownChain } from '../config/known-chains.ts';
import { DEFAULT_FAILOVER_COOLDOWN_MS, failoverTransport } from './failover-transport.ts';
import { DEFAULT_RPC_TIMEOUT_MS, keepAliveTransport } from './keep-alive-transport.ts';

/** One EVM network the service can use, with its read client. */
export type EvmNetwork = {
  chainId: number;
  name: string;
  symbol: string;
  isMainnet: boolean;
  explorer: string;
  faucet: string | null;
  /** Funds new accounts with the node's `anvil_setBalance`; only the devnet has it. */
  hasDevnetFaucet: boolean;
  /**
   * Called after the service changed the node's state outside a transaction (the faucet): the
   * devnet's snapshots save only what blocks show them otherwise.
   */
  afterStateChange?: () => void;
  confirmations: number;
  /** Ceiling for fee bumps of stuck transactions, in wei per gas; undefined = none. */
  maxFeePerGasWei: bigint | undefined;
  rpcUrls: string[];
  /** Most node calls sent in one JSON-RPC batch (1 = no batching). */
  rpcBatchSize: number;
  /** Deadline of one node call, after which it fails as ERROR_NODE_UNREACHABLE. */
  rpcTimeoutMs: number;
  /** With several URLs: how long one that did not answer goes behind the others. */
  rpcFailoverCooldownMs: number;
  chain: Chain;
  client: PublicClient;
  /**
   * One JSON-RPC call through the transport itself, without viem's request wrapper (dedupe, retry
   * loop, error classes), which is several promises per call: the hot path of views. It fails with
   * the transport's errors: `JsonRpcError` (the node's code and data) or `RpcTransportError`. With
   * several URLs, the failover transport's request (the same errors).
   */
  rpc: (method: string, params: readonly unknown[]) => Promise<unknown>;
};

function makeNetwork(fields: Omit<EvmNetwork, 'chain' | 'client' | 'rpc'>): EvmNetwork {
  const chain = defineChain({
    id: fields.chainId,
    name: fields.name,
    nativeCurrency: { name: fields.symbol, symbol: fields.symbol, decimals: 18 },
    rpcUrls: { default: { http: fields.rpcUrls } },
    testnet: !fields.isMainnet,
  });
  const transports = fields.rpcUrls.map((url) =>
    keepAliveTransport(url, { maxBatchSize: fields.rpcBatchSize, timeoutMs: fields.rpcTimeoutMs }),
  );
  const transport =
    transports.length === 1
      ? (transports[0] as Transport)
      : failoverTransport(transports, { cooldownMs: fields.rpcFailoverCooldownMs });
  const client = createPublicClient({ chain, transport, pollingInterval: 250 }) as PublicClient;
  // `client.transport.request` is the transport's own request (viem wraps only `client.request`).
  const request = client.transport.request as (call: {
    method: string;
    params: readonly unknown[];
  }) => Promise<unknown>;
  const rpc = (method: string, params: readonly unknown[]) => request({ method, params });
  return { ...fields, chain, client, rpc };
}

/** The devnet is our own anvil, which takes batches of any size; 50 keeps one answer small. */
export const DEVNET_RPC_BATCH_SIZE = 50;

export function devnetNetwork(rpcUrl: string, afterStateChange?: () => void): EvmNetwork {
  return makeNetwork({
    ...(afterStateChange ? { afterStateChange } : {}),
    chainId: DEVNET_CHAIN_ID,
    name: 'chaingate devnet (anvil)',
    symbol: 'ETH',
    isMainnet: false,
    explorer: '',
    faucet: null,
    hasDevnetFaucet: true,
    confirmations: 0,
    maxFeePerGasWei: undefined,
    rpcUrls: [rpcUrl],
    rpcBatchSize: DEVNET_RPC_BATCH_SIZE,
    rpcTimeoutMs: DEFAULT_RPC_TIMEOUT_MS,
    rpcFailoverCooldownMs: DEFAULT_FAILOVER_COOLDOWN_MS,
  });
}

/** A network from the config file, completed from the catalogue of well-known chains. */
export function configuredNetwork(entry: EvmNetworkEntry): EvmNetwork {
  const known = findKnownChain(entry.chainId);
  const name = entry.name ?? known?.name;
  const symbol = entry.symbol ?? known?.symbol;
  if (!name || !symbol) {
    throw new ConfigError(
      `evm network ${entry.chainId} is not in the catalogue of well-known chains: give its name and symbol`,
    );
  }
  return makeNetwork({
    chainId: entry.chainId,
    name,
    symbol,
    isMainnet: entry.isMainnet ?? known?.isMainnet ?? false,
    explorer: entry.explorer ?? known?.explorer ?? '',
    faucet: entry.faucet !== undefined ? entry.faucet : (known?.faucet ?? null),
    hasDevnetFaucet: entry.devnetFaucet ?? false,
    confirmations: entry.confirmations ?? known?.confirmations ?? 1,
    maxFeePerGasWei:
      entry.maxFeePerGasGwei === undefined ? undefined : BigInt(Math.round(entry.maxFeePerGasGwei * 1e9)),
    rpcUrls: entry.rpcUrls,
    // Hosted providers commonly cap batches (10–100 calls); 10 stays under every cap we know of.
    rpcBatchSize: entry.rpcBatchSize ?? 10,
    rpcTimeoutMs: entry.rpcTimeoutMs ?? DEFAULT_RPC_TIMEOUT_MS,
    rpcFailoverCooldownMs: entry.rpcFailoverCooldownMs ?? DEFAULT_FAILOVER_COOLDOWN_MS,
  });
}

/** The networks of this service, by chain id. */
export class EvmNetworks {
  readonly #byId = new Map<number, EvmNetwork>();

  constructor(networks: readonly EvmNetwork[]) {
    for (const network of networks) {
      if (this.#byId.has(network.chainId)) {
        throw new ConfigError(`evm network ${network.chainId} is configured twice`);
      }
      this.#byId.set(network.chainId, network);
    }
  }

  get(chainId: number): EvmNetwork | undefined {
    return this.#byId.get(chainId);
  }

  all(): EvmNetwork[] {
    return [...this.#byId.values()];
  }
}
