/**
 * Preloaded into the service's process by `view-process.ts` (`--import tsx --import <this file>`): a
 * control port on which one POST starts the bare proxy of `minimal-proxy-app.ts` inside that process, so
 * the same code can be measured in the service's process and in its own.
 *
 * The control server is plain `node:http` and idle during the measurement. Both servers are unref'd:
 * they must not keep a stopping service alive.
 */
import { createServer } from 'node:http';
import { listenMinimalProxy, type MinimalProxyOptions } from './minimal-proxy-app.ts';

const controlPort = Number(process.env.BENCH_IN_PROCESS_PROXY_CONTROL_PORT);
if (Number.isInteger(controlPort) && controlPort > 0) {
  const control = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => {
      body += chunk.toString();
    });
    request.on('end', () => {
      // A body that is not JSON must not take the service down with it.
      Promise.resolve()
        .then(() => listenMinimalProxy(JSON.parse(body) as MinimalProxyOptions))
        .then(
          (app) => {
            app.server.unref();
            response.end('started');
          },
          (error: Error) => {
            response.statusCode = 400;
            response.end(error.message);
          },
        );
    });
  });
  control.listen(controlPort, '127.0.0.1');
  control.unref();
}
