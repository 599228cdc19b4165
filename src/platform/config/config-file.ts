import { readFileSync } from 'node:fs';
import { type Static, Type } from 'typebox';
import { Value } from 'typebox/value';
import { parse as parseYaml } from 'yaml';

const EvmNetworkEntry = Type.Object(
  {
    chainId: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }),
    name: Type.Optional(Type.String({ minLength: 1 })),
    symbol: Type.Optional(Type.String({ minLength: 1 })),
    rpcUrls: Type.Array(Type.String({ minLength: 1 }), { minItems: 1 }),
    explorer: Type.Optional(Type.String()),
    faucet: Type.Optional(Type.Union([Type.String(), Type.Null()])),
    isMainnet: Type.Optional(Type.Boolean()),
    confirmations: Type.Optional(Type.Integer({ minimum: 0 })),
    maxFeePerGasGwei: Type.Optional(Type.Number({ exclusiveMinimum: 0 })),
    /** The node is an anvil/hardhat devnet: fund new accounts with `anvil_setBalance`. */
    devnetFaucet: Type.Optional(Type.Boolean()),
    /** Concurrent node calls sent as one JSON-RPC batch of at most this many; 1 turns batching off. */
    rpcBatchSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
    rpcTimeoutMs: Type.Optional(Type.Integer({ minimum: 100, maximum: 600_000 })),
    /** How long an RPC URL that did not answer goes behind the others (default 30 s); 0 keeps the order. */
    rpcFailoverCooldownMs: Type.Optional(Type.Integer({ minimum: 0, maximum: 3_600_000 })),
  },
  { additionalProperties: false },
);

/**
 * A Stellar network: one of the four known ids (100000000 testnet, 100000001 futurenet, 100000002
 * pubnet, 100000003 local) overrides its defaults; another id adds a network.
 */
const StellarNetworkEntry = Type.Object(
  {
    networkId: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }),
    name: Type.Optional(Type.String({ minLength: 1 })),
    rpcUrl: Type.Optional(Type.String({ minLength: 1 })),
    networkPassphrase: Type.Optional(Type.String({ minLength: 1 })),
    /** `null` turns funding off (as on pubnet). */
    friendbotUrl: Type.Optional(Type.Union([Type.String(), Type.Null()])),
    isMainnet: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

/** The toolchain and limits of Soroban project compilation (`contract/upload`); env variables win. */
const SorobanBuildEntry = Type.Object(
  {
    /** Absolute paths: cargo, rustc (with the wasm32-unknown-unknown standard library), bubblewrap. */
    cargo: Type.Optional(Type.String({ minLength: 1 })),
    rustc: Type.Optional(Type.String({ minLength: 1 })),
    bubblewrap: Type.Optional(Type.String({ minLength: 1 })),
    timeoutSeconds: Type.Optional(Type.Number({ exclusiveMinimum: 0 })),
    memoryMb: Type.Optional(Type.Integer({ minimum: 64 })),
    diskMb: Type.Optional(Type.Integer({ minimum: 16 })),
    maxUploadBytes: Type.Optional(Type.Integer({ minimum: 1 })),
  },
  { additionalProperties: false },
);

/** What `CHAINGATE_CONFIG` may hold (JSON or YAML). Every key is optional. */
export const ConfigFile = Type.Object(
  {
    evm: Type.Optional(
      Type.Object({ networks: Type.Optional(Type.Array(EvmNetworkEntry)) }, { additionalProperties: false }),
    ),
    stellar: Type.Optional(
      Type.Object(
        { networks: Type.Optional(Type.Array(StellarNetworkEntry)), build: Type.Optional(SorobanBuildEntry) },
        { additionalProperties: false },
      ),
    ),
    smtp: Type.Optional(
      Type.Object(
        { url: Type.String(), from: Type.Optional(Type.String()) },
        { additionalProperties: false },
      ),
    ),
    ipfs: Type.Optional(
      Type.Object(
        {
          /** Base URL of the links the upload endpoints answer; default: the public base URL. */
          gatewayBaseUrl: Type.Optional(Type.String({ minLength: 1 })),
          /** Where blocks are pinned: `embedded` (the data dir, the default) or a Kubo node. */
          backend: Type.Optional(Type.Union([Type.Literal('embedded'), Type.Literal('kubo')])),
          /** Kubo RPC address (e.g. `http://127.0.0.1:5001`); required with `backend: kubo`. */
          kuboApiUrl: Type.Optional(Type.String({ minLength: 1 })),
          /** Largest accepted upload in bytes (a file, or a zip and its unpacked contents). */
          maxUploadBytes: Type.Optional(Type.Integer({ minimum: 1 })),
        },
        { additionalProperties: false },
      ),
    ),
    publicBaseUrl: Type.Optional(Type.String()),
    devnet: Type.Optional(
      Type.Object(
        {
          enabled: Type.Optional(Type.Boolean()),
          port: Type.Optional(Type.Integer({ minimum: 0, maximum: 65535 })),
          blockTimeSeconds: Type.Optional(Type.Number({ exclusiveMinimum: 0 })),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);
export type ConfigFile = Static<typeof ConfigFile>;
export type EvmNetworkEntry = Static<typeof EvmNetworkEntry>;
export type StellarNetworkEntry = Static<typeof StellarNetworkEntry>;
export type SorobanBuildEntry = Static<typeof SorobanBuildEntry>;

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Reads and validates the optional config file; every problem names the file and the key. */
export function readConfigFile(path: string): ConfigFile {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (cause) {
    throw new ConfigError(`cannot read config file ${path}: ${(cause as Error).message}`);
  }
  let parsed: unknown;
  try {
    parsed = /\.ya?ml$/i.test(path) ? parseYaml(text) : JSON.parse(text);
  } catch (cause) {
    throw new ConfigError(
      `config file ${path} is not valid ${/\.ya?ml$/i.test(path) ? 'YAML' : 'JSON'}: ${(cause as Error).message}`,
    );
  }
  parsed ??= {};
  if (!Value.Check(ConfigFile, parsed)) {
    const first = Value.Errors(ConfigFile, parsed)[0];
    const where = first?.instancePath ? first.instancePath.replace(/^\//, '').replaceAll('/', '.') : '(root)';
    const extra = (first?.params as { additionalProperties?: string[] } | undefined)?.additionalProperties;
    throw new ConfigError(
      `config file ${path}: ${where} ${first?.message ?? 'is invalid'}${extra ? ` (${extra.join(', ')})` : ''}`,
    );
  }
  return parsed;
}
