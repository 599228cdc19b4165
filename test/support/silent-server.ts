import { createServer, type Socket } from 'node:net';

export type SilentServer = { port: number; close(): Promise<void> };

/**
 * A TCP server on loopback that accepts every connection and never answers: a dependency that
 * stalls. Its sockets are read (and dropped), so `close()` does not wait on clients forever.
 */
export async function startSilentServer(): Promise<SilentServer> {
  const sockets: Socket[] = [];
  const server = createServer((socket) => {
    sockets.push(socket);
    socket.resume();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as { port: number }).port,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
