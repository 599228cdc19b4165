import { type ErrorLink, findInCauseChain } from '../errors/cause-chain.ts';

/** Ours, and viem's for its own transports. */
const transportErrorNames = new Set(['RpcTransportError', 'HttpRequestError', 'TimeoutError']);

/**
 * True when a node call failed at the transport (no answer in time, connection refused or reset),
 * anywhere in the error's cause chain: the node is away, as opposed to answering with an error.
 */
export function isNodeTransportFailure(error: unknown): boolean {
  return (
    findInCauseChain(error, ({ name }) => typeof name === 'string' && transportErrorNames.has(name)) !==
    undefined
  );
}

/**
 * True when a call failed at the transport after it may have reached the node, anywhere in the cause
 * chain: it went out and no answer came back in time, the connection dropped under it, or a gateway's
 * server failed (HTTP 5xx). A raw transaction that failed so may be in the node's pool, so it is not
 * "not sent". False for a refused connection or an HTTP refusal (401, 404, 429): nothing reached it.
 */
export function mayHaveReachedNode(error: unknown): boolean {
  return (
    findInCauseChain(
      error,
      ({ name, maybeDelivered }) => maybeDelivered === true || name === 'TimeoutError',
    ) !== undefined
  );
}

/**
 * What a transport failure was, as the end of a sentence about the node, for a client: no answer, or an
 * HTTP answer that is not JSON-RPC. A 401 or 404 there is nearly always a wrong RPC URL or key, which
 * "did not answer in time" would hide.
 */
export function transportFailureWords(error: unknown): string {
  const status = httpStatusOf(error);
  if (status === undefined) {
    const failure = transportErrorOf(error);
    // Not ours (viem's TimeoutError), or ours after the deadline.
    if (failure === undefined || failure.timedOut === true) return 'did not answer in time';
    if (failure.timedOut === undefined) return 'answered something that is not JSON-RPC';
    return failure.maybeDelivered ? 'dropped the connection before answering' : 'could not be reached';
  }
  if (status === 401 || status === 403)
    return `refused the request (HTTP ${status}): check the key in its RPC URL`;
  if (status === 404 || status === 405) return `answered HTTP ${status}: check its RPC URL`;
  if (status >= 500) return `answered HTTP ${status}: its server failed`;
  return `answered HTTP ${status}, not JSON-RPC`;
}

/** Our transport's own failure (`RpcTransportError`), anywhere in the cause chain. */
function transportErrorOf(error: unknown): ErrorLink | undefined {
  return findInCauseChain(error, ({ name }) => name === 'RpcTransportError');
}

/** The HTTP status of a transport failure whose answer was not JSON-RPC, anywhere in the cause chain. */
function httpStatusOf(error: unknown): number | undefined {
  return findInCauseChain(error, ({ httpStatus }) => typeof httpStatus === 'number')?.httpStatus as
    | number
    | undefined;
}

// Hosted providers over their rate: HTTP 429, with code 429 (Alchemy) or a line of text; -32005 "limit
// exceeded" (Infura, EIP-1474); -32007 "N/second request limit reached" (QuickNode); or words to that
// effect. Not "gas limit reached" or "exceeds block gas limit": those are the transaction's.
const rateLimitCodes = new Set([429, -32005, -32007]);
const rateLimitWording =
  /rate ?limit|request rate exceeded|too many requests|request limit (exceeded|reached)|exceeded .*capacity/i;

/**
 * True when the node (a hosted provider) refused the call for its rate limit, anywhere in the cause
 * chain: it took nothing, and the same call may pass shortly. A JSON-RPC refusal and a plain HTTP 429
 * are one case. Only the node's errors are read (ours, `JsonRpcError` and `RpcTransportError`, and
 * viem's `…RpcError`s that wrap them), never the service's own 429s.
 */
export function isRateLimited(error: unknown): boolean {
  const refusal = findInCauseChain(error, ({ name, httpStatus, code, message }) => {
    if (httpStatus === 429) return true;
    if (typeof name !== 'string' || !/Rpc(Request)?Error$/.test(name)) return false;
    return (
      (typeof code === 'number' && rateLimitCodes.has(code)) ||
      (typeof message === 'string' && rateLimitWording.test(message))
    );
  });
  return refusal !== undefined;
}

/** The node's own JSON-RPC error in the error's cause chain (it answered, with an error), if any. */
export function nodeRpcError(error: unknown): { code: number; message: string; data?: unknown } | undefined {
  return findInCauseChain(error, ({ name }) => name === 'JsonRpcError') as
    | { code: number; message: string; data?: unknown }
    | undefined;
}

/**
 * JSON-RPC codes that say the EVM failed running the call, whatever the wording: 3 is a revert (geth
 * since 1.9.15, Erigon, reth, Besu and Nethermind since they aligned with it, and the execution-apis
 * tests), -32015 "VM execution error." (Nethermind before it moved reverts to 3, OpenEthereum, and
 * reth's exceptional halts).
 */
const executionFailureCodes = new Set([3, -32015]);

// How nodes word an EVM failure of a call under other codes (-32000 mostly): anvil "EVM error
// OutOfGas" / "InvalidFEOpcode" / "InvalidJump" / "StackUnderflow", geth "out of gas", "invalid
// opcode: INVALID", "invalid jump destination", "stack underflow (0 <=> 1)", Besu "Execution
// reverted", and "execution reverted" everywhere.
const executionFailureWording =
  /revert|out ?of ?gas|invalid ?(fe)?opcode|opcode ?not ?found|invalid ?jump|stack ?(underflow|overflow)|EVM error/i;

/**
 * The node's message when it says the EVM failed running the call (a revert, out of gas, an invalid
 * opcode or jump, a stack fault): the contract's doing, not the node's. Undefined otherwise.
 *
 * Nethermind's -32015 answers say what happened in `data`, under the generic message "VM execution
 * error.": "revert", "revert: <reason>", "Reverted 0x<data>", "OutOfGas". That text is the message
 * then.
 */
export function executionFailureMessage(error: unknown): string | undefined {
  const answered = nodeRpcError(error);
  if (!answered) return undefined;
  const { code, message, data } = answered;
  if (!executionFailureCodes.has(code) && !executionFailureWording.test(message)) return undefined;
  const detail = code === -32015 && typeof data === 'string' && !/^(0x[0-9a-f]*)?$/i.test(data);
  return detail ? (data as string) : message;
}

/**
 * True when the node answered that it does not have the method: JSON-RPC -32601 ("method not found"),
 * -32004 ("method not supported", EIP-1474), or a provider's words for it. A timeout or a rate limit
 * is not: the method may work on the next call.
 */
export function isMethodUnsupported(error: unknown): boolean {
  const answered = nodeRpcError(error);
  if (!answered) return false;
  if (answered.code === -32601 || answered.code === -32004) return true;
  return /method .*(not (found|supported|available)|does not exist)|unsupported method|not supported/i.test(
    answered.message,
  );
}

/**
 * A node lookup's `catch`: the node's own "there is none" (an error of class `none`, such as viem's
 * `BlockNotFoundError`) becomes null, and any other failure (a timeout, a gateway's 5xx, a rate limit)
 * is thrown on. A `.catch(() => null)` read a node that did not answer as a node that has nothing.
 */
export function noneAsNull(none: new (...args: never[]) => Error) {
  return (error: unknown): null => {
    if (error instanceof none) return null;
    throw error;
  };
}
