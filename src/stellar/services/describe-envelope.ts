import {
  Address,
  type FeeBumpTransaction,
  type Operation,
  type Transaction,
  TransactionBuilder,
  type xdr,
} from '@stellar/stellar-sdk';
import type { JsonValue } from '../../platform/json/json-value.ts';
import type { ContractSpec } from '../spec/contract-spec.ts';
import { scValToJson } from '../spec/scval-to-json.ts';

export type TransactionPart = {
  source_account: string;
  sequence_number: bigint;
  sequence_number_string: string;
  max_fee: number;
  operations: JsonValue[];
  memo: string | null;
};

function hostFunctionJson(
  fn: xdr.HostFunction,
  spec: ContractSpec | undefined,
): { [key: string]: JsonValue } {
  switch (fn.switch().name) {
    case 'hostFunctionTypeInvokeContract': {
      const call = fn.invokeContract();
      const method = call.functionName().toString();
      const inputs = spec?.func(method)?.inputs();
      return {
        function: 'invokeContract',
        contract: Address.fromScAddress(call.contractAddress()).toString(),
        method,
        args: call.args().map((arg, index) => scValToJson(arg, inputs?.[index]?.type(), spec)),
      };
    }
    case 'hostFunctionTypeUploadContractWasm':
      return { function: 'uploadContractWasm', wasmBytes: fn.wasm().length };
    case 'hostFunctionTypeCreateContract':
    case 'hostFunctionTypeCreateContractV2': {
      const args =
        fn.switch().name === 'hostFunctionTypeCreateContractV2' ? fn.createContractV2() : fn.createContract();
      const executable = args.executable();
      const constructorArgs =
        fn.switch().name === 'hostFunctionTypeCreateContractV2'
          ? fn.createContractV2().constructorArgs()
          : [];
      const inputs = spec?.func('__constructor')?.inputs();
      return {
        function: 'createContract',
        wasmHash:
          executable.switch().name === 'contractExecutableWasm'
            ? executable.wasmHash().toString('hex')
            : null,
        constructorArgs: constructorArgs.map((arg, index) => scValToJson(arg, inputs?.[index]?.type(), spec)),
      };
    }
    default:
      return { function: fn.switch().name };
  }
}

function operationJson(operation: Operation, spec: ContractSpec | undefined): JsonValue {
  switch (operation.type) {
    case 'invokeHostFunction':
      return { type: operation.type, ...hostFunctionJson(operation.func, spec) };
    case 'extendFootprintTtl':
      return { type: operation.type, extendTo: operation.extendTo };
    case 'restoreFootprint':
      return { type: operation.type };
    case 'payment':
      return { type: operation.type, destination: operation.destination, amount: operation.amount };
    case 'createAccount':
      return {
        type: operation.type,
        destination: operation.destination,
        startingBalance: operation.startingBalance,
      };
    default:
      return { type: operation.type };
  }
}

function memoText(transaction: Transaction): string | null {
  const memo = transaction.memo;
  if (memo.type === 'none' || memo.value === null) return null;
  return Buffer.isBuffer(memo.value) ? memo.value.toString('hex') : String(memo.value);
}

/** The spec's `transaction` part of transaction information, decoded from the envelope. */
export function describeEnvelope(
  envelopeXdr: string,
  passphrase: string,
  spec: ContractSpec | undefined,
): TransactionPart {
  let parsed: Transaction | FeeBumpTransaction = TransactionBuilder.fromXDR(envelopeXdr, passphrase);
  const maxFee = Number(parsed.fee);
  if ('innerTransaction' in parsed) parsed = parsed.innerTransaction;
  const transaction = parsed as Transaction;
  const sequence = BigInt(transaction.sequence);
  return {
    source_account: transaction.source,
    sequence_number: sequence,
    sequence_number_string: sequence.toString(),
    max_fee: maxFee,
    operations: transaction.operations.map((operation) => operationJson(operation, spec)),
    memo: memoText(transaction),
  };
}
