import { randomUUID } from 'node:crypto';
import { type Abi, type Address, getAddress, type Hex, parseUnits } from 'viem';
import type { Application } from '../../applications/applications.service.ts';
import type { EvmAccountKind } from '../../applications/evm-accounts.repository.ts';
import type { EvmNetwork } from '../../platform/chains/evm-networks.ts';
import { BadRequestError, GatewayError } from '../../platform/http/gateway-error.ts';
import type { Platform } from '../../platform/platform.ts';
import { errorCodes } from '../engine/engine-errors.ts';
import type { Fees } from '../engine/fee-oracle.ts';
import type { TransactionKind } from '../engine/transaction-record.ts';
import { insertFailedTransaction } from '../engine/transactions.repository.ts';
import type { TxEngine } from '../engine/tx-engine.ts';
import { estimateGas } from './estimate-gas.ts';

export type SendTransactionParameters = {
  application: Application;
  network: EvmNetwork;
  sender: Address;
  senderKinds?: readonly EvmAccountKind[];
  kind: TransactionKind;
  to: Address | undefined;
  data: Hex;
  value: bigint;
  gasLimit: bigint | undefined;
  useGasEstimation: boolean;
  /** GWEI, as the spec's `gasPrice`: the max fee per gas. */
  gasPriceGwei: number | undefined;
  /** GWEI, as the spec's `priorityFee`. */
  priorityFeeGwei: number | undefined;
  nonce: number | undefined;
  myReference: string | undefined;
  specId: number | null;
  method: string | null;
  abis: Abi[];
};

export type SendTransactionReturnType = {
  id: string;
  txHash: Hex;
  nonce: number;
  contractAddress: Address | undefined;
};

/** Gas given to a transaction sent with `useGasEstimation: false` and no `gasLimit`. */
export const UNESTIMATED_GAS_LIMIT = 3_000_000n;

function gweiToWei(value: number, field: string): bigint {
  try {
    return parseUnits(value.toFixed(9).replace(/\.?0+$/, ''), 9);
  } catch {
    throw new BadRequestError(`${field} is not a valid GWEI amount`);
  }
}

/**
 * The network's going fees capped at its ceiling: above it the transaction waits in the pool until
 * fees fall (and stuck re-sends stop at the ceiling) rather than spending more than the operator allows.
 */
function withinCeiling(network: EvmNetwork, fees: Fees): Fees {
  const ceiling = network.maxFeePerGasWei;
  if (ceiling === undefined || fees.maxFeePerGas <= ceiling) return fees;
  return {
    maxFeePerGas: ceiling,
    // biome-ignore lint/complexity/useMathMinMax: Math.min does not take bigints
    maxPriorityFeePerGas: fees.maxPriorityFeePerGas > ceiling ? ceiling : fees.maxPriorityFeePerGas,
  };
}

async function resolveFees(
  platform: TxEngine,
  network: EvmNetwork,
  parameters: SendTransactionParameters,
): Promise<Fees> {
  const { gasPriceGwei, priorityFeeGwei } = parameters;
  if (gasPriceGwei === undefined && priorityFeeGwei === undefined) {
    return withinCeiling(network, await platform.fees.current(network));
  }
  const current = await platform.fees.current(network);
  const maxFeePerGas =
    gasPriceGwei === undefined ? current.maxFeePerGas : gweiToWei(gasPriceGwei, 'gasPrice');
  let maxPriorityFeePerGas =
    priorityFeeGwei === undefined ? current.maxPriorityFeePerGas : gweiToWei(priorityFeeGwei, 'priorityFee');
  if (maxPriorityFeePerGas > maxFeePerGas) {
    if (priorityFeeGwei !== undefined) throw new BadRequestError('priorityFee must not exceed gasPrice');
    maxPriorityFeePerGas = maxFeePerGas;
  }
  if (network.maxFeePerGasWei !== undefined && maxFeePerGas > network.maxFeePerGasWei) {
    throw new BadRequestError(`gasPrice is above this network's fee ceiling`, errorCodes.feeAboveCeiling);
  }
  return { maxFeePerGas, maxPriorityFeePerGas };
}

/**
 * Everything a signing endpoint does: check the sender belongs to the application, estimate gas
 * (a given gasLimit below the estimate is a 400), price it, and hand it to the engine. A failure
 * before signing is stored as an `error` record so status by reference shows it.
 */
export async function sendTransaction(
  platform: Platform,
  engine: TxEngine,
  parameters: SendTransactionParameters,
): Promise<SendTransactionReturnType> {
  const account = await engine.signers.forApplication(
    parameters.application.id,
    getAddress(parameters.sender),
    parameters.senderKinds,
  );
  const recordFailure = async (error: GatewayError) => {
    await insertFailedTransaction(
      platform.db,
      {
        id: randomUUID(),
        applicationId: parameters.application.id,
        chainId: parameters.network.chainId,
        kind: parameters.kind,
        sender: account.address,
        to: parameters.to ?? null,
        contractAddress: null,
        value: parameters.value,
        input: parameters.data,
        method: parameters.method,
        specId: parameters.specId,
        myReference: parameters.myReference ?? null,
      },
      { code: error.code, message: error.shortMessage },
    );
  };
  let gasLimit = parameters.gasLimit;
  if (parameters.useGasEstimation) {
    let estimate: bigint;
    try {
      estimate = await estimateGas(
        parameters.network,
        { from: account.address, to: parameters.to, data: parameters.data, value: parameters.value },
        parameters.abis,
      );
    } catch (error) {
      // Failed before anything was signed: stored as an `error` record (the engine records later failures).
      if (error instanceof GatewayError) await recordFailure(error);
      throw error;
    }
    if (gasLimit !== undefined && gasLimit < estimate) {
      throw new BadRequestError(
        `gasLimit ${gasLimit} is below the chain's estimate of ${estimate}`,
        errorCodes.gasLimitTooLow,
      );
    }
    // 20 % headroom: state can change between estimate and inclusion.
    gasLimit ??= (estimate * 12n) / 10n;
  }
  const fees = await resolveFees(engine, parameters.network, parameters);
  const result = await engine.submit({
    applicationId: parameters.application.id,
    network: parameters.network,
    account,
    kind: parameters.kind,
    to: parameters.to,
    value: parameters.value,
    data: parameters.data,
    gasLimit: gasLimit ?? UNESTIMATED_GAS_LIMIT,
    fees,
    nonce: parameters.nonce === undefined ? undefined : BigInt(parameters.nonce),
    myReference: parameters.myReference ?? null,
    specId: parameters.specId,
    method: parameters.method,
  });
  return {
    id: result.id,
    txHash: result.txHash,
    nonce: Number(result.nonce),
    contractAddress: result.contractAddress,
  };
}
