/** A value that survives `JSON.stringify` unchanged: what the gateway puts in response bodies. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };
