import { Type } from 'typebox';
import { IntegerValue, Nullable } from '../../platform/http/response-types.ts';

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

const Topic = Type.Object({
  name: Type.String(),
  value: Type.String({ description: 'the raw 32-byte topic' }),
  decoded: Type.Optional(Type.Unknown({ description: 'the indexed argument, when the ABI is known' })),
});
const DataEntry = Type.Object({
  name: Type.String(),
  value: Type.Unknown({
    description: 'the decoded argument (integers as exact JSON integers); raw hex only for an unknown event',
  }),
});

export const TransactionInformation = Type.Object({
  network: Type.Integer(),
  transaction: Type.Object({
    hash: Type.String(),
    value: IntegerValue('wei'),
    valueWei: Type.String({ description: 'the same wei as a decimal string, for JavaScript clients' }),
    gas: IntegerValue('gas limit'),
    gasPrice: IntegerValue('wei per gas: the legacy price, or the max fee per gas'),
    gasTipCap: IntegerValue('wei per gas'),
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
  receipt: Nullable(
    Type.Object({
      hash: Type.String(),
      blockHash: Type.String(),
      blockNumber: Type.Integer(),
      gasPrice: IntegerValue('effective wei per gas'),
      gasUsed: IntegerValue('gas used'),
      cumulativeGasUsed: IntegerValue('cumulative gas used'),
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
          topics: Type.Array(Topic),
          data: Type.Array(DataEntry),
        }),
      ),
      errorMessage: Type.String(),
    }),
  ),
  error: Type.Boolean(),
  errorInfo: Type.Union([Type.Object({ code: Type.String(), message: Type.String() }), Type.Null()]),
});
