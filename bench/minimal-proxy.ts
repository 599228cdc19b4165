/**
 * The bare proxy of `minimal-proxy-app.ts` in a process of its own. The bench measures it next to the
 * real view endpoint with the same requests (the credential headers arrive and are ignored), so a ratio
 * target can be read against what is reachable at all here.
 *
 * Run as a child process: `minimal-proxy.ts <port> <rpcUrl> <to> <data> <batchSize>`; prints "ready".
 */
import { listenMinimalProxy } from './minimal-proxy-app.ts';

const [port, rpcUrl, to, data, batchSize] = process.argv.slice(2);
await listenMinimalProxy({
  port: Number(port),
  rpcUrl: rpcUrl as string,
  to: to as string,
  data: data as string,
  batchSize: Number(batchSize),
});
process.stdout.write('ready\n');
