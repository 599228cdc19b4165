import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import fastJson from 'fast-json-stringify';
import type { FastifyInstance, FastifySchema } from 'fastify';
import { stringifyLosslessJson } from '../json/lossless-json.ts';

const sharedOptions = {
  removeAdditional: false,
  useDefaults: true,
  allErrors: false,
  allowUnionTypes: true,
  strict: false,
} as const;

/** JSON bodies are validated as sent: `"contractSpecsId": true` is a 400, not spec 1. */
const bodyAjv = addFormats.default(new Ajv({ ...sharedOptions, coerceTypes: false }));
/** Query strings, path parameters and headers are text: their numbers and booleans are coerced. */
const textAjv = addFormats.default(new Ajv({ ...sharedOptions, coerceTypes: 'array' }));

/** The first number that is not finite (`?network=Infinity` coerced to a number), with its path. */
function nonFinite(value: unknown, path: string): string | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? undefined : path;
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = nonFinite(item, `${path}/${index}`);
      if (found !== undefined) return found;
    }
  } else if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      const found = nonFinite(item, `${path}/${key}`);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

function textValidator(schema: object): ValidateFunction {
  const validate = textAjv.compile(schema);
  const checked = ((data: unknown) => {
    if (!validate(data)) {
      checked.errors = validate.errors;
      return false;
    }
    const path = nonFinite(data, '');
    if (path !== undefined) {
      checked.errors = [
        {
          instancePath: path,
          schemaPath: '#',
          keyword: 'type',
          params: {},
          message: 'must be a finite number',
        },
      ];
      return false;
    }
    checked.errors = null;
    return true;
  }) as ValidateFunction;
  return checked;
}

/** A strict (body) validator and a coercing (text) one for a schema, for routes that validate themselves. */
export function compileInputValidators(schema: object): { strict: ValidateFunction; text: ValidateFunction } {
  return { strict: bodyAjv.compile(schema), text: textValidator(schema) };
}

/** Whether a response schema has a part of no declared type (`{}`, Type.Unknown). */
function hasFreeFormPart(schema: unknown, depth = 0): boolean {
  if (!schema || typeof schema !== 'object' || depth > 64) return false;
  const node = schema as Record<string, unknown>;
  const composed = ['anyOf', 'oneOf', 'allOf'].some((key) => Array.isArray(node[key]));
  if (!('type' in node) && !composed && !('$ref' in node) && !('enum' in node) && !('const' in node))
    return true;
  for (const key of ['items', 'additionalProperties']) {
    if (node[key] && typeof node[key] === 'object' && hasFreeFormPart(node[key], depth + 1)) return true;
  }
  for (const key of ['properties', 'patternProperties']) {
    const children = node[key];
    if (children && typeof children === 'object') {
      for (const child of Object.values(children)) if (hasFreeFormPart(child, depth + 1)) return true;
    }
  }
  for (const key of ['anyOf', 'oneOf', 'allOf']) {
    const branches = node[key];
    if (Array.isArray(branches))
      for (const branch of branches) if (hasFreeFormPart(branch, depth + 1)) return true;
  }
  return false;
}

function isBigIntFailure(error: unknown): boolean {
  return error instanceof TypeError && /BigInt/i.test(error.message);
}

/**
 * Validation without coercion for bodies, with coercion (and no infinities) for text parts; and
 * serialization by the response schemas, where a bigint in a free-form part (a view result, a
 * decoded input) is written as a number literal with all its digits (the "Numbers" rule).
 */
export function registerSchemaCompilers(app: FastifyInstance): void {
  app.setValidatorCompiler(({ schema, httpPart }) =>
    httpPart === 'body' ? bodyAjv.compile(schema as object) : textValidator(schema as object),
  );
  app.setSerializerCompiler(({ schema }) => {
    // A free-form part (a view's values, decoded inputs) may hold bigints, which the generated
    // serializer hands to JSON.stringify: such answers are written losslessly from the start.
    if (hasFreeFormPart(schema)) return stringifyLosslessJson;
    const serialize = fastJson(schema as FastifySchema as Parameters<typeof fastJson>[0]);
    return (data: unknown) => {
      try {
        return serialize(data);
      } catch (error) {
        if (isBigIntFailure(error)) return stringifyLosslessJson(data);
        throw error;
      }
    };
  });
}
