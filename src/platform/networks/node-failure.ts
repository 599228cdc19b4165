/**
 * True when a node call failed at the transport (no answer in time, connection refused or reset),
 * anywhere in the error's cause chain: the node is away, as opposed to answering with an error.
 */
export function isNodeTransportFailure(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; current && depth < 16; depth++) {
    const name = (current as { name?: string }).name;
    if (name === 'RpcTransportError' || name === 'HttpRequestError' || name === 'TimeoutError') return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/** The node's own JSON-RPC error in the error's cause chain (it answered, with an error), if any. */
export function nodeRpcError(error: unknown): { code: number; message: string } | undefined {
  let current: unknown = error;
  for (let depth = 0; current && depth < 16; depth++) {
    if ((current as { name?: string }).name === 'JsonRpcError')
      return current as { code: number; message: string };
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

// How nodes word an EVM failure of a call: anvil "EVM error OutOfGas" / "InvalidFEOpcode" /
// "InvalidJump" / "StackUnderflow", geth "out of gas", "invalid opcode: INVALID", "invalid jump
// destination", "stack underflow (0 <=> 1)", and "execution reverted" everywhere.
const executionFailureWording =
  /revert|out ?of ?gas|invalid ?(fe)?opcode|opcode ?not ?found|invalid ?jump|stack ?(underflow|overflow)|EVM error/i;

/**
 * The node's message when it says the EVM failed running the call (a revert, out of gas, an invalid
 * opcode or jump, a stack fault): the contract's doing, not the node's. Undefined otherwise.
 */
export function executionFailureMessage(error: unknown): string | undefined {
  const answered = nodeRpcError(error);
  return answered && executionFailureWording.test(answered.message) ? answered.message : undefined;
}
