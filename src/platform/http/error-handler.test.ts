import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { ChaingateError } from '../errors/chaingate-error.ts';
import { JsonRpcError, RpcTransportError } from '../networks/keep-alive-transport.ts';
import { errorHandlerPlugin } from './error-handler.ts';

/** A Fastify app whose one route fails with `error`, answered by the project's error handler. */
async function answerTo(error: unknown) {
  const app = Fastify({ logger: false });
  await app.register(errorHandlerPlugin);
  app.get('/fails', async () => {
    throw error;
  });
  const answer = await app.inject({ method: 'GET', url: '/fails' });
  await app.close();
  return { status: answer.statusCode, body: answer.json() };
}

describe('error handler', () => {
  it('answers a node error no service classified as 503 with the node’s reason, never 500', async () => {
    const pruned = new JsonRpcError({ code: -32000, message: 'missing trie node 1e8c' });
    expect(await answerTo(pruned)).toMatchObject({
      status: 503,
      body: {
        code: 'CG_ERR_DEPENDENCY',
        message: 'the network node answered an error: missing trie node 1e8c',
      },
    });
  });

  it('answers a rate limit as 503 CG_ERR_DEPENDENCY with the node’s words, a plain HTTP 429 too', async () => {
    const limited = new JsonRpcError({ code: -32005, message: 'daily request limit exceeded' });
    // As viem wraps it: the node's error at the end of the cause chain.
    const wrapped = Object.assign(new Error('RPC Request failed.'), {
      name: 'RpcRequestError',
      cause: limited,
    });
    for (const error of [limited, wrapped]) {
      const answer = await answerTo(error);
      expect(answer.status).toBe(503);
      expect(answer.body).toMatchObject({
        code: 'CG_ERR_DEPENDENCY',
        message:
          'the network node refused the call for its rate limit (daily request limit exceeded): retry shortly',
      });
    }
    const plain = new RpcTransportError('node answered HTTP 429 with a body that is not JSON-RPC', {
      httpStatus: 429,
    });
    expect(await answerTo(plain)).toMatchObject({
      status: 503,
      body: {
        code: 'CG_ERR_DEPENDENCY',
        message: 'the network node refused the call for its rate limit: retry shortly',
      },
    });
  });

  it('answers a node that did not answer as 503 ERROR_NODE_UNREACHABLE', async () => {
    const answer = await answerTo(new RpcTransportError('node did not answer within 10000 ms'));
    expect(answer).toMatchObject({ status: 503, body: { code: 'ERROR_NODE_UNREACHABLE' } });
  });

  it('answers a coded error with its status, and anything else as a bare 500', async () => {
    expect(
      await answerTo(new ChaingateError('CG_ERR_UNKNOWN_SPEC', 'contractSpecsId: no spec 9')),
    ).toMatchObject({
      status: 400,
      body: { code: 'CG_ERR_UNKNOWN_SPEC', message: 'contractSpecsId: no spec 9' },
    });
    expect(await answerTo(new TypeError('x is undefined'))).toMatchObject({
      status: 500,
      body: { code: 'CG_ERR_INTERNAL', message: 'internal error' },
    });
  });
});
