/**
 * A value of a response body. Integers beyond ±(2^53−1) are bigints: the serializer writes them as
 * number literals with all their digits (service contract, "Numbers"). EVM results and Soroban
 * values alike.
 */
export type JsonValue =
  | null
  | boolean
  | number
  | bigint
  | string
  | JsonValue[]
  | { [key: string]: JsonValue };
