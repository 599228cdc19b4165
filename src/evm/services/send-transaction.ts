import { randomUUID } from 'node:crypto';
import { type Abi, type Address, getAddress, type Hex, maxUint256, parseUnits } from 'viem';
import type { Application } from '../../applications/applications.service.ts';
import type { EvmAccountKind } from '../../platform/custody/evm-accounts.repository.ts';
import { ChaingateError } from '../../platform/errors/chaingate-error.ts';
import type { Idempotency } from '../../platform/idempotency/idempotency.ts';
import type { EvmNetwork } from '../../platform/networks/evm-networks.ts';
import type { Fees } from '../engine/fee-oracle.ts';
import type { TransactionKind } from '../engine/transaction-record.ts';
import { insertFailedTransaction } from '../engine/transactions.repository.ts';
import type { EvmContext } from './evm-context.ts';
import { gasForSend } from './gas-for-send.ts';

/** The sending options every signing endpoint takes, as the spec names them (absent = decide). */
export type SendOptions = {
  gasLimit?: bigint | undefined;
  /** Default true; false sends without asking the node (UNESTIMATED_GAS_LIMIT unless gasLimit). */
  useGasEstimation?: boolean | undefined;
  /** GWEI, the spec's `gasPrice`: the max fee per gas. */
  gasPriceGwei?: number | undefined;
  /** GWEI, the spec's `priorityFee`. */
  priorityFeeGwei?: number | undefined;
  /** Explicit nonce: replaces the pending transaction that holds it, or takes the next one. */
  nonce?: number | undefined;
  myReference?: string | undefined;
  /** The request's idempotency key (the route answers a repetition before anything runs). */
  idempotency?: Idempotency | undefined;
};

export type SendTransactionParameters = SendOptions & {
  application: Application;
  network: EvmNetwork;
  sender: Address;
  /** Which of the application's accounts may sign (senders, or custodied wallets). */
  senderKinds?: readonly EvmAccountKind[];
  kind: TransactionKind;
  /** Undefined for a deployment. */
  to: Address | undefined;
  data: Hex;
  value: bigint;
  specId: number | null;
  method: string | null;
  /** ABIs to decode a revert of the estimate with. */
  abis: Abi[];
  /** A deployment's contract record (its alias), written with the signed transaction. */
  deployment?: { specId: number; alias: string | null };
  /** The call's target is a contract this service is still deploying: it cannot be estimated yet. */
  targetPending?: boolean;
};

export type SendTransactionReturnType = {
  id: string;
  txHash: Hex;
  nonce: number;
  contractAddress: Address | undefined;
};

/** Far above any chain's block gas limit, and within the store's bigint column. */
const MAX_GAS_LIMIT = 2n ** 53n;

/** Gas given to a transaction that is not estimated and has no `gasLimit`. */
const UNESTIMATED_GAS_LIMIT = 3_000_000n;

function gweiToWei(value: number, field: string): bigint {
  try {
    return parseUnits(value.toFixed(9).replace(/\.?0+$/, ''), 9);
  } catch {
    throw new ChaingateError('CG_ERR_VALIDATION', `${field} is not a valid GWEI amount`, {
      context: { field },
    });
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

async function resolveFees(context: EvmContext, network: EvmNetwork, options: SendOptions): Promise<Fees> {
  const { gasPriceGwei, priorityFeeGwei } = options;
  // The node's fees only for what the request leaves out (the oracle answers both from one call).
  const current = () => context.engine.fees.current(network);
  if (gasPriceGwei === undefined && priorityFeeGwei === undefined)
    return withinCeiling(network, await current());
  const maxFeePerGas =
    gasPriceGwei === undefined ? (await current()).maxFeePerGas : gweiToWei(gasPriceGwei, 'gasPrice');
  let maxPriorityFeePerGas =
    priorityFeeGwei === undefined
      ? (await current()).maxPriorityFeePerGas
      : gweiToWei(priorityFeeGwei, 'priorityFee');
  if (maxPriorityFeePerGas > maxFeePerGas) {
    if (priorityFeeGwei !== undefined)
      throw new ChaingateError('CG_ERR_VALIDATION', 'priorityFee must not exceed gasPrice', {
        context: { field: 'priorityFee' },
      });
    maxPriorityFeePerGas = maxFeePerGas;
  }
  if (network.maxFeePerGasWei !== undefined && maxFeePerGas > network.maxFeePerGasWei) {
    throw new ChaingateError('ERROR_FEE_ABOVE_CEILING', `gasPrice is above this network's fee ceiling`);
  }
  return { maxFeePerGas, maxPriorityFeePerGas };
}

/**
 * The one sending path of the EVM domain, which every signing endpoint and facade calls: check the
 * sender belongs to the application, estimate gas (a given gasLimit below the estimate is a 400),
 * price it, and hand it to the engine's write-ahead submit. A failure before signing is stored as an
 * `error` record so status by reference shows it.
 */
export async function sendTransaction(
  context: EvmContext,
  parameters: SendTransactionParameters,
): Promise<SendTransactionReturnType> {
  const { platform, engine } = context;
  // A uint256 on chain and a numeric(78) in the store: anything larger is refused before both.
  if (parameters.value > maxUint256)
    throw new ChaingateError('CG_ERR_VALIDATION', 'value is larger than a uint256', {
      context: { field: 'value' },
    });
  if (parameters.gasLimit !== undefined && parameters.gasLimit > MAX_GAS_LIMIT)
    throw new ChaingateError('CG_ERR_VALIDATION', 'gasLimit is larger than any block can hold', {
      context: { field: 'gasLimit' },
    });
  const account = await engine.signers.forApplication(
    parameters.application.id,
    getAddress(parameters.sender),
    parameters.senderKinds,
  );
  let gasLimit = parameters.gasLimit;
  if ((parameters.useGasEstimation ?? true) && !parameters.targetPending) {
    let estimate: bigint;
    try {
      estimate = await gasForSend(
        parameters.network,
        { from: account.address, to: parameters.to, data: parameters.data, value: parameters.value },
        parameters.abis,
      );
    } catch (error) {
      // Failed before anything was signed: kept as an `error` record (the engine records later failures).
      if (error instanceof ChaingateError) {
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
      }
      throw error;
    }
    if (gasLimit !== undefined && gasLimit < estimate) {
      throw new ChaingateError(
        'ERROR_GAS_LIMIT_TOO_LOW',
        `gasLimit ${gasLimit} is below the chain's estimate of ${estimate}`,
        {
          context: { gasLimit, estimate },
        },
      );
    }
    // 20 % headroom: state can change between estimate and inclusion.
    gasLimit ??= (estimate * 12n) / 10n;
  }
  const fees = await resolveFees(context, parameters.network, parameters);
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
    deployment: parameters.deployment,
    idempotency: parameters.idempotency,
  });
  return {
    id: result.id,
    txHash: result.txHash,
    nonce: Number(result.nonce),
    contractAddress: result.contractAddress,
  };
}
