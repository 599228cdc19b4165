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
