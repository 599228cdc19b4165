import { request as httpRequest } from 'node:http';

// biome-ignore lint/suspicious/noExplicitAny: OpenAPI documents are read as plain JSON
type Schema = any;

export type Operation = {
  method: string;
  path: string;
  parameters: Array<{ in: string; name: string; required?: boolean; schema: Schema }>;
  body: Schema | undefined;
  bodyType: string | undefined;
  /** Error codes the document lists for this operation. */
  documentedCodes: Set<string>;
  security: Array<Record<string, unknown>> | undefined;
};

/** Every operation of an OpenAPI 3 document. */
export function operationsOf(doc: Schema): Operation[] {
  const out: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths as Record<string, Schema>)) {
    for (const [method, operation] of Object.entries(item as Record<string, Schema>)) {
      const content = operation.requestBody?.content ?? {};
      const bodyType = Object.keys(content)[0];
      const documentedCodes = new Set<string>();
      for (const response of Object.values(operation.responses ?? {}) as Schema[]) {
        const schema = response.content?.['application/json']?.schema;
        for (const code of schema?.properties?.code?.enum ?? []) documentedCodes.add(code);
      }
      out.push({
        method: method.toUpperCase(),
        path,
        parameters: operation.parameters ?? [],
        body: bodyType ? content[bodyType].schema : undefined,
        bodyType,
        documentedCodes,
        security: operation.security,
      });
    }
  }
  return out;
}

export type SampleContext = { address: string; applicationId: string; chainId: number };

/** A plausible valid value for a schema (the fuzz mutates from there). */
export function sample(schema: Schema, name: string, context: SampleContext): unknown {
  if (!schema) return 'x';
  if (schema.enum) return schema.enum[0];
  if (schema.const !== undefined) return schema.const;
  if (schema.anyOf || schema.oneOf) return sample((schema.anyOf ?? schema.oneOf)[0], name, context);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  if (/network|chainid/i.test(name) && (type === 'integer' || type === undefined)) return context.chainId;
  switch (type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const key of schema.required ?? []) out[key] = sample(schema.properties?.[key], key, context);
      return out;
    }
    case 'array':
      return schema.minItems ? [sample(schema.items, name, context)] : [];
    case 'integer':
      return Math.max(1, schema.minimum ?? 1);
    case 'number':
      return Math.max(1, schema.minimum ?? 1);
    case 'boolean':
      return true;
    case 'string': {
      if (schema.format === 'uuid') return context.applicationId;
      const pattern: string = schema.pattern ?? '';
      if (pattern.includes('{40}')) return context.address;
      if (pattern.includes('{64}')) return `0x${'ab'.repeat(32)}`;
      if (pattern.startsWith('^[0-9]')) return '1';
      if (pattern.includes('A-Za-z0-9')) return 'ref1';
      if (/url/i.test(name)) return 'https://example.invalid/x';
      if (/mail|username/i.test(name)) return 'user@example.invalid';
      return 'abc';
    }
    default:
      return 'x';
  }
}

export type Mutation = {
  family: string;
  /** Replaces the whole body text (invalid JSON, wrong content types). */
  rawBody?: string;
  contentType?: string;
  body?: unknown;
  query?: Record<string, string>;
  pathParams?: Record<string, string>;
  /** Send the JSON body with a GET (for GET routes). */
  getWithBody?: boolean;
};

const megabyte = 'x'.repeat(1024 * 1024);
const deep = (depth: number): unknown => (depth === 0 ? 1 : [deep(depth - 1)]);

/** Values of the wrong type, huge, non-finite, or not text, for any one field. */
function badValues(): Array<{ family: string; value: unknown; raw?: string }> {
  return [
    { family: 'wrong type', value: true },
    { family: 'wrong type', value: { nested: 1 } },
    { family: 'wrong type', value: [1, 2] },
    { family: 'wrong type', value: 'not-a-number' },
    { family: 'wrong type', value: 1.5 },
    {
      family: 'huge number',
      value: '1',
      raw: '115792089237316195423570985008687907853269984665640564039457584007913129639937',
    },
    { family: 'non-finite', value: '1', raw: '1e309' },
    { family: 'non-finite', value: 'Infinity' },
    { family: 'huge number', value: -1 },
    { family: 'NUL', value: 'a\u0000b' },
    { family: 'lone surrogate', value: 'a\ud800b' },
    { family: '1 MB string', value: megabyte },
    { family: 'deep array', value: deep(2000) },
  ];
}

/** The bounded set of mutations for one operation. */
export function mutationsOf(operation: Operation, context: SampleContext): Mutation[] {
  const mutations: Mutation[] = [];
  const valid = operation.body
    ? (sample(operation.body, 'body', context) as Record<string, unknown>)
    : undefined;
  const validQuery: Record<string, string> = {};
  const pathParams: Record<string, string> = {};
  for (const parameter of operation.parameters) {
    const value = String(sample(parameter.schema, parameter.name, context));
    if (parameter.in === 'path') pathParams[parameter.name] = value;
    else if (parameter.in === 'query' && parameter.required) validQuery[parameter.name] = value;
  }
  const base = { pathParams, query: validQuery };
  const fields = operation.body?.properties ? Object.keys(operation.body.properties) : [];
  if (valid && typeof valid === 'object') {
    for (const field of operation.body?.required ?? []) {
      const body = { ...valid };
      delete body[field];
      mutations.push({ ...base, family: 'missing field', body });
    }
    for (const field of fields) {
      for (const bad of badValues()) {
        if (bad.raw) {
          const text = JSON.stringify({ ...valid, [field]: '__RAW__' }).replace('"__RAW__"', bad.raw);
          mutations.push({ ...base, family: bad.family, rawBody: text, contentType: 'application/json' });
        } else mutations.push({ ...base, family: bad.family, body: { ...valid, [field]: bad.value } });
      }
    }
    mutations.push({ ...base, family: 'invalid JSON', rawBody: '{"a":', contentType: 'application/json' });
    mutations.push({ ...base, family: 'invalid JSON', rawBody: '[1,2,3]', contentType: 'application/json' });
    mutations.push({
      ...base,
      family: 'wrong content type',
      rawBody: '<a>1</a>',
      contentType: 'application/xml',
    });
    mutations.push({
      ...base,
      family: 'wrong content type',
      rawBody: '--b\r\nContent-Disposition: form-data; name="x"\r\n\r\n1\r\n--b--\r\n',
      contentType: 'multipart/form-data; boundary=b',
    });
    mutations.push({ ...base, family: 'deep array', body: deep(3000) });
  }
  for (const parameter of operation.parameters) {
    if (parameter.in === 'query') {
      for (const value of [
        'Infinity',
        'NaN',
        '1e309',
        '-1',
        'true',
        '',
        'a\u0000b',
        '%00',
        megabyte.slice(0, 8000),
      ]) {
        mutations.push({ ...base, family: 'query', query: { ...validQuery, [parameter.name]: value } });
      }
      if (parameter.required) {
        const query = { ...validQuery };
        delete query[parameter.name];
        mutations.push({ ...base, family: 'missing field', query });
      }
    }
    if (parameter.in === 'path') {
      for (const value of [
        '..%2F..%2Fetc%2Fpasswd',
        '../../admin',
        '%00',
        'Infinity',
        'x'.repeat(5000),
        '%ZZ',
      ]) {
        mutations.push({
          ...base,
          family: 'path traversal',
          pathParams: { ...pathParams, [parameter.name]: value },
        });
      }
    }
  }
  if (operation.method === 'GET') {
    mutations.push({
      ...base,
      family: 'GET with body',
      getWithBody: true,
      body: { junk: true, network: 'x' },
    });
    mutations.push({
      ...base,
      family: 'GET with body',
      getWithBody: true,
      rawBody: '{"a":',
      contentType: 'application/json',
    });
    mutations.push({
      ...base,
      family: 'GET with body',
      getWithBody: true,
      rawBody: 'x'.repeat(2 * 1024 * 1024),
      contentType: 'application/json',
    });
  }
  return mutations;
}

export type Sent = { status: number; text: string; connection: string | undefined };

/** Sends one request over a fresh connection, failing if no answer comes within `timeoutMs`. */
export function send(
  baseUrl: string,
  operation: Operation,
  mutation: Mutation,
  headers: Record<string, string>,
  timeoutMs: number,
): Promise<Sent> {
  let path = operation.path;
  for (const [name, value] of Object.entries(mutation.pathParams ?? {})) {
    path = path.replace(`{${name}}`, /%|\.\./.test(value) ? value : encodeURIComponent(value));
  }
  const query = new URLSearchParams(mutation.query ?? {}).toString();
  const url = `${baseUrl}${path}${query ? `?${query}` : ''}`;
  let body: string | undefined;
  let contentType = mutation.contentType;
  if (mutation.rawBody !== undefined) body = mutation.rawBody;
  else if (mutation.body !== undefined && (operation.method !== 'GET' || mutation.getWithBody)) {
    body = JSON.stringify(mutation.body);
    contentType ??= 'application/json';
  }
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      {
        method: operation.method,
        headers: {
          ...headers,
          ...(contentType ? { 'content-type': contentType } : {}),
          ...(body !== undefined ? { 'content-length': String(Buffer.byteLength(body)) } : {}),
          connection: 'close',
        },
      },
      (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => {
          text += chunk.toString();
        });
        res.on('end', () => {
          clearTimeout(timer);
          resolve({ status: res.statusCode ?? 0, text, connection: res.headers.connection });
        });
      },
    );
    const timer = setTimeout(() => {
      req.destroy();
      reject(
        new Error(
          `no answer within ${timeoutMs} ms: ${operation.method} ${operation.path} (${mutation.family})`,
        ),
      );
    }, timeoutMs);
    req.on('error', (error) => {
      clearTimeout(timer);
      // The server may close the connection after answering an oversized body: that is not a hang.
      if (
        (error as NodeJS.ErrnoException).code === 'EPIPE' ||
        (error as NodeJS.ErrnoException).code === 'ECONNRESET'
      ) {
        resolve({ status: 0, text: '', connection: 'reset' });
      } else reject(error);
    });
    if (body !== undefined) req.write(body);
    req.end();
  });
}
