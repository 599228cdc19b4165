import { Type } from 'typebox';

/** The body of every error answer, as Fastify itself shapes it. */
export const ErrorBody = Type.Object(
  {
    statusCode: Type.Integer(),
    code: Type.String({ description: 'Stable machine-readable code, e.g. CG_ERR_BAD_REQUEST' }),
    error: Type.String({ description: 'HTTP reason phrase' }),
    message: Type.String({ description: 'Human-readable reason; names the offending field on 400' }),
  },
  { title: 'Error' },
);

/** Response schemas for the error statuses a route can answer. */
export function errorResponses(...statuses: number[]): Record<number, typeof ErrorBody> {
  const out: Record<number, typeof ErrorBody> = {};
  for (const status of statuses) out[status] = ErrorBody;
  return out;
}
