/** An error or one of its causes, as a walker reads it: any of these fields may be missing. */
export type ErrorLink = {
  name?: unknown;
  message?: unknown;
  code?: unknown;
  cause?: unknown;
  [field: string]: unknown;
};

/**
 * The first of `error` and its causes (`error.cause`, that one's cause, …) that `matches`, as viem's
 * `walk` does. At most `maxDepth` links are read, so a cause cycle cannot hang the caller.
 */
export function findInCauseChain(
  error: unknown,
  matches: (link: ErrorLink) => boolean,
  maxDepth = 16,
): ErrorLink | undefined {
  let current = error;
  for (let depth = 0; current && depth < maxDepth; depth++) {
    if (matches(current as ErrorLink)) return current as ErrorLink;
    current = (current as ErrorLink).cause;
  }
  return undefined;
}
