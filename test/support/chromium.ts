import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium } from 'playwright-core';
import { repoRoot } from '../../src/platform/repo-root.ts';

/** Debian's Chromium, which `scripts/test` installs when missing (no browser download). */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export type Chromium = { context: BrowserContext; close(): Promise<void> };

/** Headless Chromium with a fresh profile and a phone-sized (360 px wide) viewport. */
export async function launchChromium(): Promise<Chromium> {
  const userDataDir = mkdtempSync(join(tmpdir(), 'chaingate-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
    viewport: { width: 360, height: 740 },
    deviceScaleFactor: 1,
  });
  return {
    context,
    close: async () => {
      await context.close();
      rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}

/** Where a test keeps its screenshots: `.tmp/artifacts/<name>/` in the repository (git-ignored). */
export function artifactsDir(name: string): string {
  const directory = join(repoRoot(), '.tmp', 'artifacts', name);
  mkdirSync(directory, { recursive: true });
  return directory;
}
