import { Writable } from 'node:stream';
import Fastify from 'fastify';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { lazyRequestLogger } from './request-logger.ts';

function appWithLines(level: string) {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()));
      done();
    },
  });
  const app = Fastify({ loggerInstance: pino({ level }, stream), childLoggerFactory: lazyRequestLogger });
  app.get('/', async (request) => {
    request.log.debug({ step: 'debug' }, 'debug line');
    request.log.info({ step: 'info' }, 'info line');
    request.log.child({ extra: 1 }).warn('child line');
    return { level: request.log.level };
  });
  app.get('/quiet', { logLevel: 'error' }, async (request) => {
    request.log.warn('not written');
    request.log.error('written');
    return {};
  });
  return { app, lines };
}

describe('lazyRequestLogger', () => {
  it('writes enabled lines with the request id and skips the others', async () => {
    const { app, lines } = appWithLines('info');
    const answer = await app.inject({ url: '/' });
    expect(answer.json()).toEqual({ level: 'info' });
    const ours = lines.filter((line) => line.msg !== 'incoming request' && line.msg !== 'request completed');
    expect(ours.map((line) => line.msg)).toEqual(['info line', 'child line']);
    const reqId = ours[0]?.reqId;
    expect(typeof reqId).toBe('string');
    expect(ours[1]).toMatchObject({ reqId, extra: 1 });
    expect(lines.some((line) => line.msg === 'debug line')).toBe(false);
  });

  it('honours a route-level log level', async () => {
    const { app, lines } = appWithLines('info');
    await app.inject({ url: '/quiet' });
    const messages = lines.map((line) => line.msg);
    expect(messages).toContain('written');
    expect(messages).not.toContain('not written');
  });

  it('writes debug lines when the level allows them', async () => {
    const { app, lines } = appWithLines('debug');
    await app.inject({ url: '/' });
    expect(lines.find((line) => line.msg === 'debug line')).toMatchObject({ step: 'debug' });
  });
});
