import type { Hex } from 'viem';
import { ChaingateError } from '../../platform/errors/chaingate-error.ts';
import type { JsonValue } from '../../platform/json/json-value.ts';
import { executionFailureMessage } from '../../platform/networks/node-failure.ts';
import { decodeRevertReason, executionFailureAnswer, revertDataFromError } from '../abi/decode-revert.ts';
import { decodeViewResult } from '../abi/to-json-value.ts';
import { standardAbis } from '../contract-library/standard-abis.ts';
import {
  type ContractCallRequest,
  checksumAddress,
  type EncodedContractCall,
  encodeCachedContractCall,
  encodeContractCall,
} from './encode-contract-call.ts';
import type { EvmContext } from './evm-context.ts';

export type CallViewParameters = ContractCallRequest & {
  /** Optional `msg.sender` of the call. */
  sender?: string | undefined;
};

/**
 * The return values of a read-only call, in order, as JSON. No gas, no state change.
 *
 * Written without `async`: on the common path (ABI and contract cached) the only promise is the node
 * call's, and the node is asked through `network.rpc`, not viem's wrapper. Views are the hottest
 * endpoint, and each promise layer showed in its CPU profile.
 */
export function callView(context: EvmContext, parameters: CallViewParameters): Promise<JsonValue[]> {
  try {
    const encoded = encodeCachedContractCall(context, parameters);
    if (encoded) return viewWith(encoded, parameters.sender);
  } catch (error) {
    return Promise.reject(error);
  }
  return encodeContractCall(context, parameters).then((encoded) => viewWith(encoded, parameters.sender));
}

function viewWith(encoded: EncodedContractCall, sender: string | undefined): Promise<JsonValue[]> {
  const { network, contractAddress, abi, fn, data } = encoded;
  const from = sender === undefined ? undefined : checksumAddress(sender, 'sender');
  return network.rpc('eth_call', [{ to: contractAddress, data, ...(from ? { from } : {}) }, 'latest']).then(
    (result) => {
      if (result === '0x' && fn.outputs.length > 0) {
        throw new ChaingateError(
          'CG_ERR_NOT_A_CONTRACT',
          `contractAddress ${contractAddress} returned no data: is it a contract on network ${network.chainId}?`,
        );
      }
      try {
        return decodeViewResult(fn, result as Hex);
      } catch {
        throw new ChaingateError(
          'CG_ERR_UNDECODABLE_RESULT',
          `the answer of ${contractAddress} does not decode as the outputs of ${fn.name}: is contractSpecsId the right ABI?`,
        );
      }
    },
    (error) => {
      const reason = decodeRevertReason([abi, ...standardAbis()], revertDataFromError(error));
      if (reason) {
        throw new ChaingateError('ERROR_EXECUTION_REVERTED', `execution reverted: ${reason.reason}`, {
          cause: error,
        });
      }
      const failure = executionFailureMessage(error);
      if (failure !== undefined) {
        // A revert without data, or the EVM stopping the call (out of gas, an invalid opcode).
        throw new ChaingateError('ERROR_EXECUTION_REVERTED', executionFailureAnswer(failure), {
          cause: error,
        });
      }
      throw error;
    },
  );
}
