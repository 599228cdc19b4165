import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Platform } from '../platform/platform.ts';
import { EmbeddedBackend } from './embedded-backend.ts';
import type { IpfsBackend } from './ipfs-backend.ts';
import { KuboBackend } from './kubo-backend.ts';

/** What the IPFS use cases need: the store, the pinning backend and the limits. */
export type IpfsContext = {
  platform: Platform;
  backend: IpfsBackend;
  /** Gateway links are `${gatewayBaseUrl}/ipfs/<cid>`. */
  gatewayBaseUrl: string;
  maxUploadBytes: number;
  /** Most entries a zip upload may hold. */
  maxZipEntries: number;
  /** Where zip uploads are spooled before they are read (zips are read from their end). */
  spoolDirectory: string;
};

declare module 'fastify' {
  interface FastifyInstance {
    ipfs: IpfsContext;
  }
}

const MAX_ZIP_ENTRIES = 10_000;

/**
 * Opens the configured backend under `<data dir>/ipfs`. `serverUrl` is the address the server listens
 * on, the base of gateway links when the config names no public base URL.
 */
export async function openIpfs(platform: Platform, serverUrl: string): Promise<IpfsContext> {
  const { config } = platform;
  const directory = join(config.dataDir, 'ipfs');
  const spoolDirectory = join(directory, 'spool');
  await rm(spoolDirectory, { recursive: true, force: true });
  await mkdir(spoolDirectory, { recursive: true });
  const backend =
    config.ipfs.backend === 'kubo'
      ? await KuboBackend.open(platform.db, directory, config.ipfs.kuboApiUrl as string)
      : await EmbeddedBackend.open(platform.db, directory);
  const base = config.ipfs.gatewayBaseUrl ?? config.publicBaseUrl ?? serverUrl;
  return {
    platform,
    backend,
    gatewayBaseUrl: base.replace(/\/+$/, ''),
    maxUploadBytes: config.ipfs.maxUploadBytes,
    maxZipEntries: MAX_ZIP_ENTRIES,
    spoolDirectory,
  };
}

export function gatewayUrl(context: IpfsContext, cid: string): string {
  return `${context.gatewayBaseUrl}/ipfs/${cid}`;
}
