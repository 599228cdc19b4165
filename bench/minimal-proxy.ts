/**
 * The least a Node proxy in front of anvil can cost on this machine: a Fastify route with a body
 * schema that forwards one fixed eth_call through chaingate's own keep-alive, batching transport and
 * answers the result. No authentication, no ABI work, no store. The bench measures it next to the
 * real view endpoint with the same requests (the credential headers arrive and are ignored), so a
 * ratio target can be read against what is reachable at all here.
 *
 * Run as a child process: `minimal-proxy.ts <port> <rpcUrl> <to> <data> <batchSize>`; prints "ready".
 */
import Fastify from 'fastify';
import { keepAliveTransport } from '../src/platform/networks/keep-alive-transport.ts';

const [port, rpcUrl, to, data, batchSize] = process.argv.slice(2);
const transport = keepAliveTransport(rpcUrl as string, { maxBatchSize: Number(batchSize) })({});
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
await app.listen({ port: Number(port), host: '127.0.0.1' });
process.stdout.write('ready\n');
