import type { Hex } from 'viem';
import { ChaingateError } from '../../platform/errors/chaingate-error.ts';
import type { JsonValue } from '../../platform/json/json-value.ts';
import { decodeRevertReason, revertDataFromError } from '../abi/decode-revert.ts';
import { decodeViewResult } from '../abi/to-json-value.ts';
import { standardAbis } from '../contract-library/standard-abis.ts';
import { type ContractCallRequest, checksumAddress, encodeContractCall } from './encode-contract-call.ts';
import type { EvmContext } from './evm-context.ts';

export type CallViewParameters = ContractCallRequest & {
  /** Optional `msg.sender` of the call. */
  sender?: string | undefined;
};

/** The return values of a read-only call, in order, as JSON. No gas, no state change. */
export async function callView(context: EvmContext, parameters: CallViewParameters): Promise<JsonValue[]> {
  const { network, contractAddress, abi, fn, data } = await encodeContractCall(context, parameters);
  const from = parameters.sender === undefined ? undefined : checksumAddress(parameters.sender, 'sender');
  let result: Hex;
  try {
    result = (await network.client.request({
      method: 'eth_call',
      params: [{ to: contractAddress, data, ...(from ? { from } : {}) }, 'latest'],
    })) as Hex;
  } catch (error) {
    const reason = decodeRevertReason([abi, ...standardAbis()], revertDataFromError(error));
    if (reason || /revert/i.test((error as Error).message)) {
      throw new ChaingateError(
        'ERROR_EXECUTION_REVERTED',
        `execution reverted${reason ? `: ${reason.reason}` : ''}`,
        {
          cause: error,
        },
      );
    }
    throw error;
  }
  if (result === '0x' && fn.outputs.length > 0) {
    throw new ChaingateError(
      'CG_ERR_NOT_A_CONTRACT',
      `contractAddress ${contractAddress} returned no data: is it a contract on network ${network.chainId}?`,
    );
  }
  try {
    return decodeViewResult(fn, result);
  } catch {
    throw new ChaingateError(
      'CG_ERR_UNDECODABLE_RESULT',
      `the answer of ${contractAddress} does not decode as the outputs of ${fn.name}: is contractSpecsId the right ABI?`,
    );
  }
}
