import { ChaingateError, quote } from '../../platform/errors/chaingate-error.ts';
import type { StellarNetwork } from '../../platform/networks/stellar-networks.ts';

type TransportError = { code?: string; message?: string; response?: { status?: number }; name?: string };

/** Why a call did not get an answer, in words a client can act on (no URL: it may carry a key). */
export function transportReason(error: unknown, timeoutMs: number): string | undefined {
  const e = error as TransportError | undefined;
  if (!e || typeof e !== 'object') return undefined;
  // fetch wraps the socket error: `TypeError('fetch failed', { cause: { code: 'ECONNREFUSED' } })`.
  const cause = (e as { cause?: unknown }).cause;
  if (e.name === 'TypeError' && cause) return transportReason(cause, timeoutMs) ?? 'is not reachable';
  const code = e.code ?? '';
  const message = e.message ?? '';
  if (
    code === 'ECONNABORTED' ||
    code === 'ETIMEDOUT' ||
    e.name === 'TimeoutError' ||
    /timeout/i.test(message)
  )
    return `did not answer within ${timeoutMs / 1000} s`;
  if (code === 'ECONNREFUSED') return 'refused the connection';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'has a host name that does not resolve';
  if (code === 'ECONNRESET' || code === 'EPIPE' || /socket hang up/i.test(message))
    return 'closed the connection';
  if (code === 'ERR_NETWORK' || code === 'EHOSTUNREACH' || code === 'ENETUNREACH') return 'is not reachable';
  const status = e.response?.status;
  if (typeof status === 'number') return `answered HTTP ${status}`;
  if (code === 'ERR_BAD_RESPONSE' || code === 'ERR_BAD_REQUEST') return 'answered with an HTTP error';
  if (e.name === 'SyntaxError') return 'answered something that is not JSON';
  return undefined;
}

/**
 * Whether a call that got no answer may still have reached the RPC: false only when it surely did
 * not (the connection was refused, the host is unknown or unroutable, the server refused the request
 * with HTTP 4xx). A timeout, a dropped connection, a gateway's 5xx or an answer that is not JSON may
 * all follow a request the RPC read and acted on.
 */
export function mayHaveReachedRpc(error: unknown): boolean {
  const e = error as TransportError | undefined;
  if (!e || typeof e !== 'object') return true;
  const cause = (e as { cause?: unknown }).cause;
  if (e.name === 'TypeError' && cause) return mayHaveReachedRpc(cause);
  const code = e.code ?? '';
  if (['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH'].includes(code)) return false;
  const status = e.response?.status;
  return !(typeof status === 'number' && status < 500);
}

export function unreachable(
  network: StellarNetwork,
  what: string,
  reason: string,
  maybeDelivered = true,
): ChaingateError {
  return new ChaingateError(
    'CG_ERR_STELLAR_UNREACHABLE',
    `network ${network.networkId} (${network.name}): the ${what} ${reason}`,
    { context: { networkId: network.networkId, maybeDelivered } },
  );
}

/** A JSON-RPC error object as the SDK throws it (not an Error). */
function isJsonRpcError(error: unknown): error is { code: number; message: string } {
  return (
    typeof error === 'object' &&
    error !== null &&
    !(error instanceof Error) &&
    typeof (error as { code?: unknown }).code === 'number' &&
    typeof (error as { message?: unknown }).message === 'string'
  );
}

/**
 * Runs one call to a network's Soroban RPC. No answer (refused, timed out, HTTP error) becomes 503
 * `CG_ERR_STELLAR_UNREACHABLE` with the reason, and `context.maybeDelivered` saying whether the RPC
 * may have read the request all the same; an error the RPC answers becomes 503
 * `CG_ERR_DEPENDENCY` with its message. Anything else is thrown as it is.
 */
export async function rpcCall<T>(
  network: StellarNetwork,
  call: (server: StellarNetwork['rpc']) => Promise<T>,
) {
  try {
    return await call(network.rpc);
  } catch (error) {
    if (error instanceof ChaingateError) throw error;
    if (isJsonRpcError(error)) {
      throw new ChaingateError(
        'CG_ERR_DEPENDENCY',
        `network ${network.networkId}: the Soroban RPC answered error ${error.code}: ${quote(error.message)}`,
        // An answer: the RPC read the request and refused it.
        { cause: error, context: { maybeDelivered: false } },
      );
    }
    const reason = transportReason(error, network.timeoutMs);
    if (reason) throw unreachable(network, 'Soroban RPC', reason, mayHaveReachedRpc(error));
    throw error;
  }
}
