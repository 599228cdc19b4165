import { Type } from 'typebox';

export const StatusRecord = Type.Object({
  id: Type.String(),
  txHash: Type.Union([Type.String(), Type.Null()], { description: 'null when it failed before signing' }),
  blockchainNetwork: Type.Integer(),
  status: Type.Union([
    Type.Literal('inserted'),
    Type.Literal('processing'),
    Type.Literal('confirmed'),
    Type.Literal('error'),
    Type.Literal('evmError'),
  ]),
  error: Type.Union([Type.String(), Type.Null()], {
    description: 'null when there is no error, else the reason',
  }),
  errorInfo: Type.Union([Type.Object({ code: Type.String(), message: Type.String() }), Type.Null()]),
  nonce: Type.Union([Type.Integer(), Type.Null()]),
  myReference: Type.Union([Type.String(), Type.Null()]),
  creationTimestamp: Type.Integer({ description: 'Unix ms' }),
  confirmationTimestamp: Type.Optional(
    Type.Integer({ description: 'Unix ms; absent until confirmed or evmError' }),
  ),
});

const NamedHex = Type.Object({ name: Type.String(), value: Type.String() });

export const TransactionInformation = Type.Object({
  network: Type.Integer(),
  transaction: Type.Object({
    hash: Type.String(),
    value: Type.Unknown({ description: 'wei; decimal string beyond 2^53' }),
    gas: Type.Unknown(),
    gasPrice: Type.Unknown(),
    gasTipCap: Type.Unknown(),
    nonce: Type.Integer(),
    from: Type.String(),
    to: Type.Union([Type.String(), Type.Null()]),
    pending: Type.Boolean(),
    inputData: Type.Union([
      Type.Object({
        function: Type.String(),
        functionId: Type.String(),
        inputs: Type.Array(Type.Object({ name: Type.String(), type: Type.String(), value: Type.Unknown() })),
      }),
      Type.Null(),
    ]),
  }),
  receipt: Type.Union([
    Type.Object({
      hash: Type.String(),
      blockHash: Type.String(),
      blockNumber: Type.Integer(),
      gasPrice: Type.Unknown(),
      gasUsed: Type.Unknown(),
      cumulativeGasUsed: Type.Unknown(),
      tokenId: Type.Union([Type.Unknown(), Type.Null()], { description: 'deprecated' }),
      from: Type.String({ description: 'deprecated' }),
      to: Type.Union([Type.String(), Type.Null()], { description: 'deprecated' }),
      contractAddress: Type.Union([Type.String(), Type.Null()]),
      blockTime: Type.String({ description: 'ISO 8601 UTC' }),
      status: Type.Integer({ description: '1 success, 0 reverted' }),
      logs: Type.Array(
        Type.Object({
          address: Type.String(),
          name: Type.String(),
          topics: Type.Array(NamedHex),
          data: Type.Array(NamedHex),
        }),
      ),
      errorMessage: Type.String(),
    }),
    Type.Null(),
  ]),
  error: Type.Boolean(),
  errorInfo: Type.Union([Type.Object({ code: Type.String(), message: Type.String() }), Type.Null()]),
});
