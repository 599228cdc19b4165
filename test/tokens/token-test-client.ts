import { expect } from 'vitest';
import { type ApiAnswer, type apiClient, waitForFinalStatus } from '../support/api-client.ts';
import type { TestService } from '../support/service.ts';

export type Call = ReturnType<typeof apiClient>;

/** A state change that must be accepted (201) and then confirmed on chain. */
export async function confirmed(call: Call, path: string, body: Record<string, unknown>): Promise<ApiAnswer> {
  const answer = await call('POST', path, body);
  if (answer.status !== 201) throw new Error(`${path} answered ${answer.status}: ${answer.text}`);
  const status = await waitForFinalStatus(call, answer.body.txHash);
  if (status.status !== 'confirmed') throw new Error(`${path} ended ${status.status}: ${status.error}`);
  return answer;
}

/** A refusal: the status and code, and a message matching `message`. */
export async function refused(
  call: Call,
  method: 'GET' | 'POST',
  path: string,
  body: Record<string, unknown> | undefined,
  status: number,
  code: string,
  message?: RegExp,
): Promise<ApiAnswer> {
  const answer = await call(method, path, body);
  expect(answer.status, `${path}: ${answer.text}`).toBe(status);
  expect(answer.body.code, `${path}: ${answer.text}`).toBe(code);
  if (message) expect(answer.body.message).toMatch(message);
  return answer;
}

/** Reads a GET|POST endpoint the three ways clients do, expects the same 200 answer each time. */
export async function readThreeWays(
  call: Call,
  path: string,
  input: Record<string, unknown>,
  /** Answer fields that move with the chain head (left out of the comparison). */
  volatile: string[] = [],
): Promise<ApiAnswer> {
  const steady = (body: Record<string, unknown>) =>
    Object.fromEntries(Object.entries(body ?? {}).filter(([key]) => !volatile.includes(key)));
  const post = await call('POST', path, input);
  expect(post.status, `${path}: ${post.text}`).toBe(200);
  const getBody = await call('GET', path, input);
  expect(steady(getBody.body)).toEqual(steady(post.body));
  const query = new URLSearchParams(
    Object.entries(input).map(([key, value]): [string, string] => [
      key,
      typeof value === 'string' ? value : JSON.stringify(value),
    ]),
  );
  const getQuery = await call('GET', `${path}?${query}`);
  expect(steady(getQuery.body)).toEqual(steady(post.body));
  return post;
}

/** A new sender of the test application (funded by the devnet faucet). */
export async function addSender(service: TestService, call: Call): Promise<string> {
  const added = await call(
    'POST',
    `/admin/v1/applications/${service.credentials.applicationId}/senders`,
    undefined,
    { authorization: `Bearer ${service.credentials.adminToken}` },
  );
  if (added.status !== 201) throw new Error(`add sender answered ${added.status}: ${added.text}`);
  return added.body.sender;
}

/** Another application, with its own credentials. */
export async function otherApplication(service: TestService): Promise<Record<string, string>> {
  const response = await fetch(`${service.url}/admin/v1/applications`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${service.credentials.adminToken}`,
      'content-type': 'application/json',
    },
    body: JSON.stringify({ name: 'other', plan: 'premium' }),
  });
  const created = (await response.json()) as { applicationId: string; apiKey: string };
  return { authorization: `Bearer ${created.apiKey}`, 'x-application-svc': created.applicationId };
}

export const nobody = '0x000000000000000000000000000000000000dEaD';
