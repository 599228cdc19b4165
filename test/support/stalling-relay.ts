import { connect, createServer, type Socket } from 'node:net';
import { inject } from 'vitest';
import { createDatabase } from './postgres-server.ts';

export type StallingRelay = {
  /** The relay's address on loopback, to put in place of the server's. */
  port: number;
  /** From now on the server's bytes are held back: to its clients, the server has stalled. */
  stall(): void;
  /**
   * Stalls right after a client's bytes holding `text` went through: the server gets them and acts on
   * them, and its answer is held back (a COMMIT it carried out and never confirmed). With `following`,
   * only on a connection that has sent `following` before (that transaction's COMMIT, not another's).
   */
  stallAfter(text: string, following?: string): void;
  /** Stalls on a client's bytes holding `text`, and keeps them: the server never gets that statement. */
  stallAt(text: string): void;
  /** The next stall a trigger starts (`stallAfter`, `stallAt`) ends by itself `ms` later. */
  resumeAfter(ms: number): void;
  /** Delivers what was held back and relays again. */
  resume(): void;
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
  let trigger: { text: Buffer; following: Buffer | undefined; withhold: boolean } | undefined;
  let resumeAfterMs: number | undefined;
  const resume = () => {
    if (!stalled) return;
    stalled = false;
    for (const { client, server } of pairs) {
      server.pipe(client);
      server.resume();
    }
  };
  const stall = () => {
    if (stalled) return;
    stalled = true;
    for (const { server } of pairs) {
      server.unpipe();
      server.pause();
    }
  };
  const relay = createServer((client) => {
    const server = connect(target.port, target.host);
    const pair = { client, server };
    pairs.add(pair);
    let armed = false;
    let withheld = false;
    client.on('data', (chunk: Buffer) => {
      if (trigger && chunk.includes(trigger.text) && (armed || !trigger.following)) {
        withheld = trigger.withhold;
        trigger = undefined;
        stall();
        if (resumeAfterMs !== undefined) setTimeout(resume, resumeAfterMs);
        resumeAfterMs = undefined;
      } else if (trigger?.following && chunk.includes(trigger.following)) armed = true;
      // A connection whose statement was kept from the server sends nothing more (its client gives up).
      if (!withheld) server.write(chunk);
    });
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
    stall,
    stallAfter: (text, following) => {
      trigger = {
        text: Buffer.from(text),
        following: following === undefined ? undefined : Buffer.from(following),
        withhold: false,
      };
    },
    stallAt: (text) => {
      trigger = { text: Buffer.from(text), following: undefined, withhold: true };
    },
    resumeAfter: (ms) => {
      resumeAfterMs = ms;
    },
    resume,
    close: async () => {
      for (const { client, server } of pairs) {
        client.destroy();
        server.destroy();
      }
      await new Promise((resolve) => relay.close(resolve));
    },
  };
}

/** A fresh database on the test PostgreSQL server, and its URL through a relay that can stall it. */
export async function relayedDatabase(): Promise<{ url: string; relay: StallingRelay }> {
  const url = new URL(await createDatabase(inject('postgresUrl')));
  const relay = await startStallingRelay({ host: url.hostname, port: Number(url.port) });
  url.hostname = '127.0.0.1';
  url.port = String(relay.port);
  return { url: url.toString(), relay };
}
