import { Type } from 'typebox';

export const NetworkIdField = (description = 'Stellar network id') =>
  Type.Integer({
    minimum: 1,
    maximum: 2_147_483_647,
    description: `${description}: 100000000 testnet, 100000001 futurenet, 100000002 pubnet, 100000003 the embedded local network`,
  });

export const AccountField = (description: string) =>
  Type.String({ pattern: '^G[A-Z2-7]{55}$', description: `${description} (G…)` });

export const ContractAddressField = (description: string) =>
  Type.String({ pattern: '^C[A-Z2-7]{55}$', description: `${description} (C…)` });

export const SpecsIdField = (description = 'contract specs id (from save)') =>
  Type.Integer({ minimum: 1, maximum: 2_147_483_647, description });

export const MyReferenceField = Type.String({
  pattern: '^[A-Za-z0-9]{1,128}$',
  description: 'customer reference: alphanumeric, at most 128 characters; repeating one is allowed',
});

export const ParamsField = (description: string) =>
  Type.Array(Type.Unknown(), {
    maxItems: 64,
    description:
      `${description}, converted with the contract's spec: integers (any width) as JSON numbers or decimal strings, ` +
      'Address as G… or C…, Symbol and String as strings, Bytes/BytesN as hex, Vec and tuples as arrays, Map as an ' +
      'object or [key, value] pairs, Option as null or the value, structs as objects (tuple structs as arrays), ' +
      'unions as "Case" or {"tag": "Case", "values": [...]}, enums by name or number. `null` or absent means [].',
  });

export const MethodField = Type.String({
  minLength: 1,
  maxLength: 32,
  pattern: '^[A-Za-z0-9_]+$',
  description: 'function name as in the Rust code',
});

export const TxHashParam = Type.String({
  pattern: '^(0x)?[0-9a-fA-F]{64}$',
  description: 'transaction hash (64 hex digits)',
});

export const ReferenceParam = Type.String({
  pattern: '^[A-Za-z0-9]{1,128}$',
  description: 'alphanumeric, ≤ 128',
});

/** Field-name variants accepted on the network field, documented in each schema. */
export const networkAliases = { network: 'blockchainNetwork', networkId: 'blockchainNetwork' };
export const accountNetworkAliases = { network: 'networkId', blockchainNetwork: 'networkId' };
export const networkAliasNote = 'Accepted synonyms: `network` and `networkId` for `blockchainNetwork`.';

export const PendingAnswer = Type.Object({
  txHash: Type.String({ description: 'transaction hash (hex)' }),
  status: Type.String({ enum: ['PENDING'], description: 'PENDING: submitted, not yet in a ledger' }),
});

export const CostAnswer = Type.Object({
  estimatedCost: Type.Number({ description: 'simulated cost in lumens (resource fee + inclusion fee)' }),
  restore: Type.Boolean({ description: 'true when archived entries must be restored first' }),
  restoreCost: Type.Number({ description: 'cost of the restoration in lumens; 0 when not needed' }),
});

export const TtlAnswer = Type.Object({
  isAlive: Type.Boolean({ description: 'the entry lives (its TTL has not ended)' }),
  latestLedger: Type.Integer({ description: 'latest ledger of the network' }),
  liveUntilLedger: Type.Union([Type.Integer(), Type.Null()], {
    description: 'last ledger the entry lives in',
  }),
});

const ErrorInfo = Type.Object({
  code: Type.String({
    description: 'result code (txFailed, invokeHostFunctionTrapped, …) or a CG_ERR_… code',
  }),
  message: Type.String(),
  contractError: Type.Optional(
    Type.Union([
      Type.Object({
        code: Type.Integer({ description: 'the contract error number' }),
        name: Type.Union([Type.String(), Type.Null()], { description: 'its name in the contract spec' }),
      }),
      Type.Null(),
    ]),
  ),
});

const Receipt = Type.Union([
  Type.Object({
    code: Type.String({ description: 'transaction result code (txSuccess, txFailed, …)' }),
    operationCode: Type.Union([Type.String(), Type.Null()], { description: 'the operation result code' }),
    fee_charged: Type.Integer({ description: 'fee charged, in stroops' }),
    ledger: Type.Integer(),
    createdAt: Type.String({ description: 'ledger close time, ISO 8601 UTC' }),
    return_value: Type.Boolean({ description: 'whether a return value is produced' }),
    result: Type.Unknown({ description: 'the decoded return value as JSON (with the contract spec types)' }),
    events: Type.Union(
      [
        Type.Array(
          Type.Object({
            contract: Type.Union([Type.String(), Type.Null()]),
            topics: Type.Array(Type.Unknown()),
            data: Type.Unknown(),
          }),
        ),
        Type.Null(),
      ],
      { description: 'decoded contract events; null when none' },
    ),
    error: Type.Union([ErrorInfo, Type.Null()]),
  }),
  Type.Null(),
]);

export const TransactionInformationAnswer = Type.Object({
  network: Type.Integer(),
  txHash: Type.String(),
  status: Type.String({
    enum: ['PENDING', 'SUCCESS', 'FAILED'],
    description: 'PENDING (submitted, not yet in a ledger), SUCCESS, FAILED (failed in a ledger, or refused)',
  }),
  kind: Type.Union([Type.String(), Type.Null()], {
    description: 'upload, deploy, invoke, extend_ttl or restore for a transaction of this application',
  }),
  myReference: Type.Union([Type.String(), Type.Null()]),
  transaction: Type.Object(
    {
      source_account: Type.String(),
      sequence_number: Type.Unsafe<bigint | number>({
        type: 'integer',
        description: 'sequence number, every digit (it may exceed 2^53)',
      }),
      sequence_number_string: Type.String({ description: 'the same, as a decimal string' }),
      max_fee: Type.Integer(),
      operations: Type.Array(Type.Unknown()),
      memo: Type.Union([Type.String(), Type.Null()]),
    },
    { description: 'decoded from the envelope' },
  ),
  receipt: Receipt,
  recipt: Receipt,
  error: Type.String({ description: 'error text; empty string when none' }),
  errorInfo: Type.Union([ErrorInfo, Type.Null()]),
});

export const RecordSummary = Type.Object({
  id: Type.String(),
  txHash: Type.Union([Type.String(), Type.Null()]),
  network: Type.Integer(),
  kind: Type.String(),
  status: Type.String({ enum: ['PENDING', 'SUCCESS', 'FAILED'] }),
  contractAddress: Type.Union([Type.String(), Type.Null()]),
  method: Type.Union([Type.String(), Type.Null()]),
  myReference: Type.Union([Type.String(), Type.Null()]),
  error: Type.Union([Type.String(), Type.Null()]),
  errorInfo: Type.Union([Type.Object({ code: Type.String(), message: Type.String() }), Type.Null()]),
  ledger: Type.Union([Type.Integer(), Type.Null()]),
  creationTimestamp: Type.Integer({ description: 'ms since epoch' }),
  confirmationTimestamp: Type.Union([Type.Integer(), Type.Null()]),
});
