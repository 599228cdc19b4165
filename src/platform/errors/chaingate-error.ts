import { findInCauseChain } from './cause-chain.ts';
import type { ErrorCode } from './codes.ts';

export type ChaingateErrorOptions = {
  /** Typed facts about the failure (field, address, chain id …), for logs and for callers that branch. */
  context?: Record<string, unknown>;
  /** Longer explanation for the log; never sent to the client. */
  details?: string;
  cause?: unknown;
};

/**
 * The one error class of chaingate's domains. It carries a stable `code` and its context, never an
 * HTTP status: `platform/errors/codes.ts` decides the status, in the error handler only.
 */
export class ChaingateError extends Error {
  override name = 'ChaingateError';
  readonly code: ErrorCode;
  readonly shortMessage: string;
  readonly context: Record<string, unknown>;
  readonly details: string | undefined;

  constructor(code: ErrorCode, shortMessage: string, options: ChaingateErrorOptions = {}) {
    super(shortMessage, { cause: options.cause });
    this.code = code;
    this.shortMessage = shortMessage;
    this.context = options.context ?? {};
    this.details = options.details;
  }

  /** Walks the cause chain and returns the first error matching `predicate` (viem's `walk`). */
  walk(predicate: (error: unknown) => boolean): unknown {
    return findInCauseChain(this, predicate, 32);
  }
}

/** Longest piece of client input any message or log line quotes. */
const MAX_QUOTED_INPUT = 80;

/** Client input as it may appear in a message: short, with control characters escaped. */
export function quote(value: unknown): string {
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  const clipped =
    text.length > MAX_QUOTED_INPUT ? `${text.slice(0, MAX_QUOTED_INPUT)}… (${text.length} chars)` : text;
  let out = '';
  for (const char of clipped) {
    const code = char.codePointAt(0) as number;
    // Control characters and lone surrogates are escaped: a log line stays one line of valid UTF-8.
    out +=
      code < 0x20 || code === 0x7f || (code >= 0xd800 && code <= 0xdfff)
        ? `\\u${code.toString(16).padStart(4, '0')}`
        : char;
  }
  return out;
}
