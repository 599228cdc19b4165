/**
 * The one error base class of chaingate. Every error that leaves the service as an HTTP answer is a
 * GatewayError (or is mapped to one by the error handler), so clients always see
 * `{ statusCode, code, error, message }`.
 */
export type GatewayErrorOptions = {
  code: string;
  statusCode: number;
  details?: string | undefined;
  cause?: unknown;
};

export class GatewayError extends Error {
  override name = 'GatewayError';
  readonly code: string;
  readonly statusCode: number;
  readonly shortMessage: string;
  readonly details: string | undefined;

  constructor(shortMessage: string, options: GatewayErrorOptions) {
    super(shortMessage, { cause: options.cause });
    this.shortMessage = shortMessage;
    this.code = options.code;
    this.statusCode = options.statusCode;
    this.details = options.details;
  }

  /** Walks the cause chain and returns the first error matching `predicate` (viem's `walk`). */
  walk(predicate: (error: unknown) => boolean): unknown {
    let current: unknown = this;
    for (let depth = 0; current && depth < 32; depth++) {
      if (predicate(current)) return current;
      current = (current as { cause?: unknown }).cause;
    }
    return undefined;
  }
}

export class BadRequestError extends GatewayError {
  override name = 'BadRequestError';
  constructor(message: string, code = 'CG_ERR_BAD_REQUEST', cause?: unknown) {
    super(message, { code, statusCode: 400, cause });
  }
}

export class UnauthorizedError extends GatewayError {
  override name = 'UnauthorizedError';
  constructor(message = 'missing or invalid credentials', code = 'CG_ERR_UNAUTHORIZED') {
    super(message, { code, statusCode: 401 });
  }
}

export class ForbiddenError extends GatewayError {
  override name = 'ForbiddenError';
  constructor(message: string, code = 'CG_ERR_FORBIDDEN') {
    super(message, { code, statusCode: 403 });
  }
}

export class NotFoundError extends GatewayError {
  override name = 'NotFoundError';
  constructor(message: string, code = 'CG_ERR_NOT_FOUND') {
    super(message, { code, statusCode: 404 });
  }
}

export class DependencyError extends GatewayError {
  override name = 'DependencyError';
  constructor(message: string, code = 'CG_ERR_DEPENDENCY', cause?: unknown) {
    super(message, { code, statusCode: 503, cause });
  }
}
