import { Networks, rpc } from '@stellar/stellar-sdk';
import type { StellarNetworkEntry } from '../config/config-file.ts';
import { ConfigError } from '../config/config-file.ts';

/** Network ids of document 3, chosen not to collide with EVM chain ids, and the embedded one. */
export const STELLAR_NETWORK_IDS = {
  testnet: 100_000_000,
  futurenet: 100_000_001,
  pubnet: 100_000_002,
  local: 100_000_003,
} as const;

/** One Stellar network the service can use, with its Soroban RPC client. */
export type StellarNetwork = {
  networkId: number;
  name: string;
  rpcUrl: string;
  passphrase: string;
  /** `null`: no friendbot (pubnet), accounts are funded by a payment. */
  friendbotUrl: string | null;
  isMainnet: boolean;
  /** The embedded sandbox: ledgers close every second, so the tracker polls it often. */
  isLocal: boolean;
  /** How long one RPC or friendbot call may take before the network counts as unreachable. */
  timeoutMs: number;
  rpc: rpc.Server;
};

type NetworkFields = Omit<StellarNetwork, 'rpc' | 'timeoutMs'>;

/** Public endpoints; every field can be overridden by the config file's `stellar.networks`. */
const publicDefaults: NetworkFields[] = [
  {
    networkId: STELLAR_NETWORK_IDS.testnet,
    name: 'Stellar testnet',
    rpcUrl: 'https://soroban-testnet.stellar.org',
    passphrase: Networks.TESTNET,
    friendbotUrl: 'https://friendbot.stellar.org',
    isMainnet: false,
    isLocal: false,
  },
  {
    networkId: STELLAR_NETWORK_IDS.futurenet,
    name: 'Stellar futurenet',
    rpcUrl: 'https://rpc-futurenet.stellar.org',
    passphrase: Networks.FUTURENET,
    friendbotUrl: 'https://friendbot-futurenet.stellar.org',
    isMainnet: false,
    isLocal: false,
  },
  {
    networkId: STELLAR_NETWORK_IDS.pubnet,
    name: 'Stellar pubnet',
    rpcUrl: 'https://mainnet.sorobanrpc.com',
    passphrase: Networks.PUBLIC,
    friendbotUrl: null,
    isMainnet: true,
    isLocal: false,
  },
];

/** The embedded Soroban sandbox, when it runs. */
export type LocalStellarNetwork = { rpcUrl: string; friendbotUrl: string; passphrase: string };

function withClient(fields: NetworkFields, timeoutMs: number): StellarNetwork {
  const server = new rpc.Server(fields.rpcUrl, { allowHttp: true });
  // The SDK's client is an axios instance: its default timeout bounds every call (never a hang).
  server.httpClient.defaults.timeout = timeoutMs;
  return { ...fields, timeoutMs, rpc: server };
}

function applyEntry(base: NetworkFields | undefined, entry: StellarNetworkEntry): NetworkFields {
  const rpcUrl = entry.rpcUrl ?? base?.rpcUrl;
  const passphrase = entry.networkPassphrase ?? base?.passphrase;
  if (!rpcUrl || !passphrase) {
    throw new ConfigError(
      `stellar.networks: network ${entry.networkId} is not a known id, so it needs rpcUrl and networkPassphrase`,
    );
  }
  if (!/^https?:\/\//.test(rpcUrl))
    throw new ConfigError(`stellar.networks: network ${entry.networkId} rpcUrl must be http(s)`);
  return {
    networkId: entry.networkId,
    name: entry.name ?? base?.name ?? `Stellar network ${entry.networkId}`,
    rpcUrl,
    passphrase,
    friendbotUrl: entry.friendbotUrl === undefined ? (base?.friendbotUrl ?? null) : entry.friendbotUrl,
    isMainnet: entry.isMainnet ?? base?.isMainnet ?? false,
    isLocal: base?.isLocal ?? false,
  };
}

/** The Stellar networks the service knows, by network id. */
export class StellarNetworks {
  readonly #byId = new Map<number, StellarNetwork>();

  constructor(networks: StellarNetwork[]) {
    for (const network of networks) this.#byId.set(network.networkId, network);
  }

  get(networkId: number): StellarNetwork | undefined {
    return this.#byId.get(networkId);
  }

  all(): StellarNetwork[] {
    return [...this.#byId.values()];
  }
}

/**
 * Testnet, futurenet and pubnet with their public endpoints, the embedded network when it runs, and
 * the config file's entries over them (a known id overrides, another id adds a network).
 */
export function buildStellarNetworks(options: {
  entries: readonly StellarNetworkEntry[];
  local: LocalStellarNetwork | null;
  timeoutMs: number;
}): StellarNetworks {
  const fields = new Map<number, NetworkFields>(
    publicDefaults.map((network) => [network.networkId, network]),
  );
  if (options.local) {
    fields.set(STELLAR_NETWORK_IDS.local, {
      networkId: STELLAR_NETWORK_IDS.local,
      name: 'chaingate local Soroban network',
      rpcUrl: options.local.rpcUrl,
      passphrase: options.local.passphrase,
      friendbotUrl: options.local.friendbotUrl,
      isMainnet: false,
      isLocal: true,
    });
  }
  for (const entry of options.entries) {
    fields.set(entry.networkId, applyEntry(fields.get(entry.networkId), entry));
  }
  return new StellarNetworks([...fields.values()].map((network) => withClient(network, options.timeoutMs)));
}
