import { type Static, type TSchema, Type } from 'typebox';

/**
 * A response integer that may exceed 2^53: a number or a bigint in the handler, always written as a
 * JSON integer with all its digits (service contract, "Numbers"). Give it a decimal-string twin
 * (`…Wei`, `…String`) where JavaScript clients need exactness.
 */
export const IntegerValue = (description: string) =>
  Type.Unsafe<number | bigint>({
    type: 'integer',
    description: `${description} (a JSON integer with all its digits)`,
  });

/**
 * A response object that may be `null`, declared with OpenAPI's `nullable` rather than a union: the
 * serializer picks a union's branch by validating it, and a bigint inside fails that validation.
 */
export const Nullable = <T extends TSchema>(schema: T) =>
  Type.Unsafe<Static<T> | null>({ ...schema, nullable: true });
