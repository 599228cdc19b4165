import Fastify, { type FastifyInstance } from 'fastify';
import { keepAliveTransport } from '../src/platform/networks/keep-alive-transport.ts';

export type MinimalProxyOptions = {
  port: number;
  rpcUrl: string;
  /** The token and the encoded balanceOf call forwarded on every request. */
  to: string;
  data: string;
  batchSize: number;
};

/**
 * The least a Node proxy in front of anvil can cost: a Fastify route with a body schema that forwards one
 * fixed eth_call through chaingate's own keep-alive, batching transport and answers the result. No
 * authentication, no ABI work, no store. Run in its own process (`minimal-proxy.ts`) or inside the
 * service's (`in-process-proxy.ts`).
 */
export async function listenMinimalProxy(options: MinimalProxyOptions): Promise<FastifyInstance> {
  const { to, data } = options;
  const transport = keepAliveTransport(options.rpcUrl, { maxBatchSize: options.batchSize })({});
  const app = Fastify({ logger: false });
  app.post(
    '/view',
    {
      schema: {
        body: {
          type: 'object',
          required: ['contractAddress', 'method', 'params'],
          properties: {
            contractAddress: { type: 'string' },
            blockchainNetwork: { type: 'integer' },
            method: { type: 'string' },
            params: { type: 'array' },
          },
        },
        response: { 200: { type: 'array', items: {} } },
      },
    },
    async () => [await transport.request({ method: 'eth_call', params: [{ to, data }, 'latest'] })],
  );
  await app.listen({ port: options.port, host: '127.0.0.1' });
  return app;
}
