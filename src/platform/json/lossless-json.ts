/**
 * JSON for request bodies, parsed so that no number changes on the way in. `JSON.parse` rounds an
 * integer beyond 2^53 (`1234567890123456789` becomes …768) and reads `1e18` as an integer, so a
 * wei amount written by a Go, Python or shell client as a bare number would silently change. Here:
 *
 * - an integer literal within ±(2^53 − 1) is a number;
 * - a longer integer literal is a string of its exact digits (every integer field accepts decimal
 *   strings; a field that wants a small integer refuses the string with a 400);
 * - a literal with a fraction or an exponent stays a number when it is not a whole value (`2.5`),
 *   and is kept as its source text when it is (`1e18`, `5.0`) or is not finite (`1e309`), so an
 *   integer field refuses it (400, never rounded) and a decimal field can read it exactly.
 *
 * Bodies whose number literals are all short plain integers or plain fractions (nearly every
 * request) take `JSON.parse`'s fast path; only the others are parsed here. `parseStoredJson` is the
 * same parser for JSON we stored ourselves, with bigints for long integers.
 */

/**
 * True when `JSON.parse` would change or reinterpret some number literal of `text`: an exponent, a
 * whole value written with a fraction of zeros (`5.0`), or an integer of more than 15 digits. One pass
 * with no allocation, strings skipped with `indexOf` (a regex tokenizer took 0.55 µs of a view body's
 * 1 µs parse; this takes 0.15). Malformed text may answer either way: `JSON.parse` or the slow parser
 * then refuses it.
 */
function hasRiskyNumber(text: string): boolean {
  const length = text.length;
  let at = 0;
  while (at < length) {
    const c = text.charCodeAt(at);
    if (c === 34) {
      // A string: to its closing quote, one not escaped by an odd run of backslashes.
      let end = text.indexOf('"', at + 1);
      while (end !== -1 && isEscaped(text, end)) end = text.indexOf('"', end + 1);
      if (end === -1) return false;
      at = end + 1;
    } else if (c === 45 || (c >= 48 && c <= 57)) {
      if (c === 45) at++;
      const digitsStart = at;
      while (at < length && isDigit(text.charCodeAt(at))) at++;
      const integerDigits = at - digitsStart;
      let next = text.charCodeAt(at);
      if (next === 46) {
        at++;
        let onlyZeros = true;
        while (at < length && isDigit(text.charCodeAt(at))) {
          if (text.charCodeAt(at) !== 48) onlyZeros = false;
          at++;
        }
        next = text.charCodeAt(at);
        if (next === 101 || next === 69) return true;
        if (onlyZeros) return true;
      } else if (next === 101 || next === 69) return true;
      else if (integerDigits > 15) return true;
    } else at++;
  }
  return false;
}

function isEscaped(text: string, quoteAt: number): boolean {
  let backslashes = 0;
  while (text.charCodeAt(quoteAt - 1 - backslashes) === 92) backslashes++;
  return backslashes % 2 === 1;
}

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

export class JsonSyntaxError extends Error {
  override name = 'JsonSyntaxError';
}

/** Parses a number literal's source the way the module comment says, or to a bigint for stored JSON. */
function numberValue(source: string, bigIntegers: boolean): number | string | bigint {
  if (!/[.eE]/.test(source)) {
    const value = Number(source);
    if (Number.isSafeInteger(value)) return value;
    return bigIntegers ? BigInt(source) : source.replace(/^(-?)0+(?=\d)/, '$1');
  }
  const value = Number(source);
  // Stored JSON was written by us: a fraction or exponent there was a number.
  if (bigIntegers) return value;
  return Number.isFinite(value) && !Number.isInteger(value) ? value : source;
}

/** A small recursive-descent JSON parser (RFC 8259) with the number rule above. */
function parseSlow(text: string, bigIntegers = false): unknown {
  let at = 0;
  const fail = (what: string): never => {
    throw new JsonSyntaxError(`${what} at position ${at}`);
  };
  const space = () => {
    while (at < text.length) {
      const c = text.charCodeAt(at);
      if (c === 32 || c === 9 || c === 10 || c === 13) at++;
      else break;
    }
  };
  const string = (): string => {
    const start = ++at;
    let out = '';
    let chunkStart = start;
    while (at < text.length) {
      const c = text.charCodeAt(at);
      if (c === 34) {
        out += text.slice(chunkStart, at++);
        return out;
      }
      if (c === 92) {
        out += text.slice(chunkStart, at);
        const escaped = text[at + 1];
        const simple: Record<string, string> = {
          '"': '"',
          '\\': '\\',
          '/': '/',
          b: '\b',
          f: '\f',
          n: '\n',
          r: '\r',
          t: '\t',
        };
        if (escaped !== undefined && escaped in simple) {
          out += simple[escaped];
          at += 2;
        } else if (escaped === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(at + 2, at + 6))) {
          out += String.fromCharCode(Number.parseInt(text.slice(at + 2, at + 6), 16));
          at += 6;
        } else fail('bad escape');
        chunkStart = at;
        continue;
      }
      if (c < 32) fail('control character in string');
      at++;
    }
    return fail('unterminated string');
  };
  const number = (): number | string | bigint => {
    const match = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(text.slice(at, at + 400));
    if (!match) return fail('bad number');
    at += match[0].length;
    return numberValue(match[0], bigIntegers);
  };
  const value = (depth: number): unknown => {
    if (depth > 512) fail('nesting too deep');
    space();
    const c = text[at];
    if (c === '{') {
      at++;
      const object: Record<string, unknown> = {};
      space();
      if (text[at] === '}') {
        at++;
        return object;
      }
      for (;;) {
        space();
        if (text[at] !== '"') fail('expected a key');
        const key = string();
        space();
        if (text[at++] !== ':') fail("expected ':'");
        const item = value(depth + 1);
        // A key like "__proto__" is a plain property, as with JSON.parse.
        Object.defineProperty(object, key, {
          value: item,
          enumerable: true,
          writable: true,
          configurable: true,
        });
        space();
        if (text[at] === ',') {
          at++;
          continue;
        }
        if (text[at++] === '}') return object;
        fail("expected ',' or '}'");
      }
    }
    if (c === '[') {
      at++;
      const array: unknown[] = [];
      space();
      if (text[at] === ']') {
        at++;
        return array;
      }
      for (;;) {
        array.push(value(depth + 1));
        space();
        if (text[at] === ',') {
          at++;
          continue;
        }
        if (text[at++] === ']') return array;
        fail("expected ',' or ']'");
      }
    }
    if (c === '"') return string();
    if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) return number();
    for (const [word, result] of [
      ['true', true],
      ['false', false],
      ['null', null],
    ] as const) {
      if (text.startsWith(word, at)) {
        at += word.length;
        return result;
      }
    }
    return fail('unexpected token');
  };
  const result = value(0);
  space();
  if (at !== text.length) fail('unexpected text after the JSON value');
  return result;
}

/** Parses request JSON without changing any number (see the module comment). */
export function parseLosslessJson(text: string): unknown {
  if (!hasRiskyNumber(text)) {
    try {
      return JSON.parse(text);
    } catch (error) {
      throw new JsonSyntaxError((error as Error).message);
    }
  }
  return parseSlow(text);
}

/**
 * Parses JSON this service wrote itself (a `jsonb` column): an integer beyond ±(2^53 − 1) becomes a
 * bigint, so a stored response part (a Stellar receipt's return value) is answered with every digit
 * again. The drivers' own `JSON.parse` would round it.
 */
export function parseStoredJson(text: string): unknown {
  return hasRiskyNumber(text) ? parseSlow(text, true) : JSON.parse(text);
}

/**
 * JSON text of a value whose integers may be bigints: each is written as a number literal with all
 * its digits (the "Numbers" rule), which `JSON.stringify` refuses to do. Otherwise as JSON.stringify:
 * `toJSON` is honoured, `undefined` and functions are left out of objects and are `null` in arrays.
 */
export function stringifyLosslessJson(value: unknown): string {
  switch (typeof value) {
    case 'bigint':
      return value.toString();
    case 'number':
      return Number.isFinite(value) ? String(value) : 'null';
    case 'string':
      return JSON.stringify(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object': {
      if (value === null) return 'null';
      if (typeof (value as { toJSON?: unknown }).toJSON === 'function') {
        return stringifyLosslessJson((value as { toJSON(): unknown }).toJSON());
      }
      if (Array.isArray(value)) {
        let out = '[';
        for (let i = 0; i < value.length; i++) {
          if (i > 0) out += ',';
          const item = value[i];
          out +=
            item === undefined || typeof item === 'function' || typeof item === 'symbol'
              ? 'null'
              : stringifyLosslessJson(item);
        }
        return `${out}]`;
      }
      let out = '{';
      let first = true;
      for (const key of Object.keys(value)) {
        const item = (value as Record<string, unknown>)[key];
        if (item === undefined || typeof item === 'function' || typeof item === 'symbol') continue;
        out += `${first ? '' : ','}${JSON.stringify(key)}:${stringifyLosslessJson(item)}`;
        first = false;
      }
      return `${out}}`;
    }
    default:
      return 'null';
  }
}
