import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

export type Answer = { status: number; headers: Headers; text: string; body: unknown; bytes: Buffer };

async function answer(response: Response): Promise<Answer> {
  const bytes = Buffer.from(await response.arrayBuffer());
  const text = bytes.toString('utf8');
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: response.status, headers: response.headers, text, body, bytes };
}

/** A multipart form with the `filename` and `file` fields (either may be left out). */
export function uploadForm(fields: {
  filename?: string;
  file?: Uint8Array | Blob;
  fileFirst?: boolean;
}): FormData {
  const form = new FormData();
  const file = () => {
    if (fields.file === undefined) return;
    const blob = fields.file instanceof Blob ? fields.file : new Blob([fields.file]);
    form.append('file', blob, fields.filename ?? 'upload.bin');
  };
  if (fields.fileFirst) file();
  if (fields.filename !== undefined) form.append('filename', fields.filename);
  if (!fields.fileFirst) file();
  return form;
}

/** Calls of the IPFS API and gateway of a running service. */
export function ipfsClient(baseUrl: string, auth: Record<string, string>) {
  return {
    async upload(form: FormData, headers = auth): Promise<Answer> {
      return answer(await fetch(`${baseUrl}/ipfs/v2/file/upload`, { method: 'POST', headers, body: form }));
    },
    async uploadZip(zip: Uint8Array, headers = auth): Promise<Answer> {
      const form = new FormData();
      form.append('file', new Blob([zip]), 'collection.zip');
      return answer(await fetch(`${baseUrl}/ipfs/v2/upload/zip`, { method: 'POST', headers, body: form }));
    },
    async metadata(document: unknown, headers = auth): Promise<Answer> {
      return answer(
        await fetch(`${baseUrl}/ipfs/v2/file/metadata`, {
          method: 'POST',
          headers: { ...headers, 'content-type': 'application/json' },
          body: JSON.stringify(document),
        }),
      );
    },
    async list(query = '', headers = auth): Promise<Answer> {
      return answer(await fetch(`${baseUrl}/ipfs/v2/files${query}`, { headers }));
    },
    async unpin(cid: string, headers = auth): Promise<Answer> {
      return answer(await fetch(`${baseUrl}/ipfs/v2/files/${cid}`, { method: 'DELETE', headers }));
    },
    /** The gateway: no credentials. */
    async get(path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Answer> {
      return answer(await fetch(`${baseUrl}${path}`, { method, headers }));
    },
  };
}

/** Every block file of the embedded store (and what staging holds), to prove what was kept. */
export function storedBlockFiles(dataDir: string): string[] {
  const files: string[] = [];
  const walk = (directory: string) => {
    let names: string[];
    try {
      names = readdirSync(directory);
    } catch {
      return;
    }
    for (const name of names) {
      const path = join(directory, name);
      if (statSync(path).isDirectory()) walk(path);
      else files.push(path);
    }
  };
  walk(join(dataDir, 'ipfs'));
  return files.sort();
}
