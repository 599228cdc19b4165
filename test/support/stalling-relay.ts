import { connect, createServer, type Socket } from 'node:net';

export type StallingRelay = {
  /** The relay's address on loopback, to put in place of the server's. */
  port: number;
  /** From now on the server's bytes are held back: to its clients, the server has stalled. */
  stall(): void;
  /** Delivers what was held back and relays again. */
  resume(): void;
  /** Connections the relay has now (a client's, paired with one to the server). */
  openConnections(): number;
  close(): Promise<void>;
};

/**
 * A TCP relay on loopback in front of a real server (PostgreSQL here). While stalled it still reads the
 * clients' bytes and passes them on, but holds back every byte the server sends: the server took the
 * statement and answers nothing, as one whose disk or lock hangs. A client closing its side closes the
 * relayed one, so the server sees it go.
 */
export async function startStallingRelay(target: { host: string; port: number }): Promise<StallingRelay> {
  const pairs = new Set<{ client: Socket; server: Socket }>();
  let stalled = false;
  const relay = createServer((client) => {
    const server = connect(target.port, target.host);
    const pair = { client, server };
    pairs.add(pair);
    client.pipe(server);
    if (stalled) server.pause();
    else server.pipe(client);
    const drop = () => {
      pairs.delete(pair);
      client.destroy();
      server.destroy();
    };
    client.on('close', drop).on('error', drop);
    server.on('close', drop).on('error', drop);
  });
  await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
  return {
    port: (relay.address() as { port: number }).port,
    stall: () => {
      if (stalled) return;
      stalled = true;
      for (const { server } of pairs) {
        server.unpipe();
        server.pause();
      }
    },
    resume: () => {
      if (!stalled) return;
      stalled = false;
      for (const { client, server } of pairs) {
        server.pipe(client);
        server.resume();
      }
    },
    openConnections: () => pairs.size,
    close: async () => {
      for (const { client, server } of pairs) {
        client.destroy();
        server.destroy();
      }
      await new Promise((resolve) => relay.close(resolve));
    },
  };
}
