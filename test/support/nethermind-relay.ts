import { decodeAbiParameters, type Hex } from 'viem';
import type { RpcAnswer, RpcError, RpcItem } from './json-rpc-server.ts';

const errorStringSelector = '0x08c379a0';

/**
 * An EVM failure as Nethermind answered it before it moved reverts to code 3 (the answers quoted in its
 * issues #2098, #4761, #5740 and #6024, and cowprotocol/watch-tower#11): code -32015, and what happened
 * in `data` as text. `eth_call`: message "VM execution error.", data "revert: <reason>" for an
 * Error(string), "Reverted 0x<data>" for other revert data, "revert" for none, the halt's name
 * ("OutOfGas") otherwise. `eth_estimateGas`: "revert" as the message when there is no data.
 */
function asNethermind(method: string, error: RpcError): RpcError {
  const data = typeof error.data === 'string' && error.data !== '0x' ? (error.data as Hex) : undefined;
  if (!/revert/i.test(error.message)) {
    const halt = /EVM error (\w+)/.exec(error.message)?.[1] ?? error.message;
    return { code: -32015, message: 'VM execution error.', data: halt };
  }
  if (data === undefined) {
    return method === 'eth_estimateGas'
      ? { code: -32015, message: 'revert' }
      : { code: -32015, message: 'VM execution error.', data: 'revert' };
  }
  if (method === 'eth_call' && data.startsWith(errorStringSelector)) {
    const [reason] = decodeAbiParameters([{ type: 'string' }], `0x${data.slice(10)}`);
    return { code: -32015, message: 'VM execution error.', data: `revert: ${reason}` };
  }
  return { code: -32015, message: 'VM execution error.', data: `Reverted ${data}` };
}

/**
 * A relay handler (`startRelayedService`) that answers the EVM failures of `eth_call` and
 * `eth_estimateGas` the way Nethermind did (see `asNethermind`) and forwards everything else unchanged.
 * Nethermind cannot run here; this speaks its wire format for those answers.
 */
export async function answerAsNethermind(
  item: RpcItem,
  forward: (item: RpcItem) => Promise<RpcAnswer>,
): Promise<RpcAnswer> {
  const answer = await forward(item);
  const simulated = item.method === 'eth_call' || item.method === 'eth_estimateGas';
  if (!simulated || answer.error === undefined) return answer;
  return { ...answer, error: asNethermind(item.method, answer.error) };
}
