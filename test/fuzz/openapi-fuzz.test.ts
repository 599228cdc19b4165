import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  type Mutation,
  mutationsOf,
  type Operation,
  operationsOf,
  type Sent,
  send,
} from '../support/openapi-fuzz.ts';
import { startTestService, type TestService } from '../support/service.ts';

/**
 * Walks every path and method of the service's own `/openapi.json` (so endpoints added later are
 * fuzzed by themselves) with bounded mutation families: missing fields, wrong types, huge and
 * non-finite numbers, NUL and lone surrogates, 1 MB strings, deep arrays, invalid JSON, wrong content
 * types, GET with a body, path traversal. No answer may be a 5xx other than a dependency's 503, none
 * may hang, and every error carries a code the document lists for that endpoint.
 */
let service: TestService;

beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => {
  await service?.close();
});

/** Codes every endpoint may answer whatever the document says: the router and the HTTP layer's own. */
const alwaysPossible = new Set(['CG_ERR_ROUTE_NOT_FOUND', 'CG_ERR_URL_TOO_LONG', 'CG_ERR_HEADERS_TOO_LARGE']);
const dependencyCodes = new Set(['CG_ERR_DEPENDENCY', 'ERROR_NODE_UNREACHABLE', 'CG_ERR_STARTING']);

it('answers every mutated request of every documented endpoint with a coded 4xx (or success), never a 5xx or a hang', {
  timeout: 600_000,
}, async () => {
  const doc = await (await fetch(`${service.url}/openapi.json`)).json();
  const operations = operationsOf(doc);
  expect(operations.length).toBeGreaterThan(15);
  const context = {
    address: service.credentials.sender,
    applicationId: service.credentials.applicationId,
    chainId: 31337,
  };
  const headersOf = (operation: Operation): Record<string, string> => {
    const schemes = (operation.security ?? []).flatMap((entry) => Object.keys(entry));
    if (schemes.includes('adminToken')) return { authorization: `Bearer ${service.credentials.adminToken}` };
    return service.auth;
  };

  const work: Array<{ operation: Operation; mutation: Mutation }> = [];
  for (const operation of operations) {
    for (const mutation of mutationsOf(operation, context)) work.push({ operation, mutation });
  }
  expect(work.length).toBeGreaterThan(1000);
  expect(work.length).toBeLessThan(20_000);

  const problems: string[] = [];
  let next = 0;
  const worker = async () => {
    while (next < work.length) {
      const { operation, mutation } = work[next++] as (typeof work)[number];
      let answer: Sent;
      try {
        answer = await send(service.url, operation, mutation, headersOf(operation), 30_000);
      } catch (error) {
        problems.push(`HANG/ERROR ${(error as Error).message}`);
        continue;
      }
      const where = `${operation.method} ${operation.path} [${mutation.family}]`;
      if (answer.status === 0) continue; // closed after an oversized body, as it should
      if (operation.method === 'HEAD') {
        // A HEAD answer has no body, so only its status can be judged.
        if (answer.status >= 500) problems.push(`${where}: ${answer.status}`);
        continue;
      }
      let body: { code?: string; message?: string } = {};
      try {
        body = JSON.parse(answer.text);
      } catch {
        if (answer.status >= 400) problems.push(`${where}: ${answer.status} without a JSON body`);
      }
      if (answer.status >= 500 && !(answer.status === 503 && dependencyCodes.has(body.code ?? ''))) {
        problems.push(`${where}: ${answer.status} ${answer.text.slice(0, 200)}`);
      } else if (answer.status >= 400) {
        if (!body.code || !body.message) problems.push(`${where}: ${answer.status} without code and message`);
        else if (!operation.documentedCodes.has(body.code) && !alwaysPossible.has(body.code)) {
          problems.push(`${where}: code ${body.code} is not in the document for this endpoint`);
        }
        if ((body.message ?? '').length > 2000)
          problems.push(`${where}: a ${body.message?.length}-character message`);
      }
    }
  };
  await Promise.all(Array.from({ length: 6 }, worker));
  expect(problems.slice(0, 40)).toEqual([]);

  // The service still answers afterwards.
  expect((await fetch(`${service.url}/health`)).status).toBe(200);
});
