import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { type ApiAnswer, type apiClient, postForm } from '../../support/api-client.ts';
import { buildZip, type ZipItem } from '../../support/zip-builder.ts';

export const ADDER_PROJECT = join(import.meta.dirname, '..', 'fixtures', 'adder-project');

/** The files under `dir` as zip items named `prefix` + their relative path (no build output). */
function folderItems(dir: string, prefix: string): ZipItem[] {
  return readdirSync(dir).flatMap((entry): ZipItem[] => {
    if (entry === 'target' || entry === 'Cargo.lock') return [];
    const path = join(dir, entry);
    if (statSync(path).isDirectory())
      return [{ name: `${prefix}${entry}/` }, ...folderItems(path, `${prefix}${entry}/`)];
    return [{ name: `${prefix}${entry}`, data: readFileSync(path), deflate: true }];
  });
}

/** A zip of a folder's contents (as the spec asks), or of the folder itself with `asFolder`. */
export function zipFolder(dir: string, asFolder?: string): Buffer {
  return buildZip(
    asFolder ? [{ name: `${asFolder}/` }, ...folderItems(dir, `${asFolder}/`)] : folderItems(dir, ''),
  );
}

/** A zip of the given files (path → text). */
export function zipFiles(files: Record<string, string>): Buffer {
  return buildZip(
    Object.entries(files).map(([name, text]) => ({ name, data: Buffer.from(text), deflate: true })),
  );
}

/** A one-crate contract project whose `build.rs` is given: it runs (as host code) before compilation. */
export function buildScriptProject(name: string, buildRs: string): Record<string, string> {
  return {
    'Cargo.toml': `[package]\nname = "${name}"\nversion = "0.1.0"\nedition = "2021"\nbuild = "build.rs"\n\n[lib]\ncrate-type = ["cdylib"]\n`,
    'src/lib.rs':
      '#![no_std]\n#[panic_handler]\nfn panic(_: &core::panic::PanicInfo) -> ! {\n    core::arch::wasm32::unreachable()\n}\n' +
      '#[no_mangle]\npub extern "C" fn nothing() -> u64 {\n    2\n}\n',
    'build.rs': buildRs,
  };
}

/** POSTs a zip to `/stellar/v1/contract/upload` as multipart form data, as curl -F would. */
export async function uploadZip(
  baseUrl: string,
  headers: Record<string, string>,
  zip: Buffer | undefined,
  options: { filename?: string; extra?: Record<string, string> } = {},
): Promise<ApiAnswer> {
  const body = new FormData();
  if (zip) body.append('file', new Blob([zip]), options.filename ?? 'project.zip');
  for (const [key, value] of Object.entries(options.extra ?? {})) body.append(key, value);
  return postForm(`${baseUrl}/stellar/v1/contract/upload`, headers, body);
}

/** Polls the build status until it is done or failed; answers the last status. */
export async function waitForBuild(
  call: ReturnType<typeof apiClient>,
  filename: string,
  timeoutMs = 120_000,
  // biome-ignore lint/suspicious/noExplicitAny: build status read by tests
): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const answer = await call('GET', `/stellar/v1/contract/upload/${filename}/status`);
    if (answer.status !== 200) throw new Error(`status answered ${answer.status}: ${answer.text}`);
    if (answer.body.status === 'done' || answer.body.status === 'failed') return answer.body;
    if (Date.now() > deadline)
      throw new Error(`build ${filename} still ${answer.body.status} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
