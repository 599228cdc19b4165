import { Type } from 'typebox';
import { type ErrorCode, errorCodes } from '../errors/codes.ts';

/** Codes any endpoint can answer, whatever it does: request parsing, credentials, a failed store. */
const requestCodes: ErrorCode[] = [
  'CG_ERR_VALIDATION',
  'CG_ERR_INVALID_JSON',
  'CG_ERR_BAD_REQUEST',
  'CG_ERR_BODY_TOO_LARGE',
  'CG_ERR_UNSUPPORTED_MEDIA_TYPE',
  'CG_ERR_STARTING',
  'CG_ERR_DEPENDENCY',
];

function errorBodySchema(codes: ErrorCode[]) {
  return Type.Object(
    {
      statusCode: Type.Integer(),
      code: Type.String({ enum: codes, description: 'stable machine-readable code' }),
      error: Type.String({ description: 'HTTP reason phrase' }),
      message: Type.String({ description: 'human-readable reason; names the offending field on 400' }),
    },
    { description: codes.map((code) => `\`${code}\`: ${errorCodes[code].meaning}`).join('\n\n') },
  );
}

/**
 * Response schemas for the error codes a route can answer, grouped by the status the table gives
 * them, each status described with its codes and their meanings. `credentials: false` for the
 * endpoints that need none (the gateway, the wallet page's API).
 */
export function errorResponses(codes: ErrorCode[], options: { credentials?: boolean } = {}) {
  const all = new Set<ErrorCode>([...requestCodes, ...codes]);
  if (options.credentials !== false) all.add('CG_ERR_UNAUTHORIZED');
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of all) {
    const status = errorCodes[code].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const out: Record<number, ReturnType<typeof errorBodySchema>> = {};
  for (const [status, list] of [...byStatus].sort((a, b) => a[0] - b[0])) out[status] = errorBodySchema(list);
  return out;
}
