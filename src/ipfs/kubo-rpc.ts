import { CID } from 'multiformats/cid';
import { ChaingateError } from '../platform/errors/chaingate-error.ts';
import { BlockNotFoundError } from './block-store.ts';

/** One line of `/api/v0/add`'s newline-delimited JSON answer (Kubo's `AddEvent`). */
export type KuboAddEvent = { Name: string; Hash?: string; Size?: string; Bytes?: number };

const REQUEST_TIMEOUT_MS = 30_000;
const UPLOAD_TIMEOUT_MS = 30 * 60_000;

function unreachable(cause: unknown): ChaingateError {
  return new ChaingateError('CG_ERR_DEPENDENCY', 'the Kubo node did not answer', { cause });
}

/**
 * A client of the few Kubo RPC calls chaingate uses. Every Kubo RPC call is a POST with its arguments
 * in the query string; errors come back as HTTP 500 with `{"Message", "Code", "Type": "error"}`.
 * Reads run with `offline=true`: an unknown CID is a 404 here, never a search of the public network.
 */
export class KuboRpc {
  readonly #base: string;

  constructor(apiUrl: string) {
    this.#base = apiUrl.replace(/\/+$/, '');
  }

  async #call(path: string, query: Record<string, string>, init: RequestInit & { timeoutMs?: number } = {}) {
    const url = `${this.#base}/api/v0/${path}?${new URLSearchParams(query)}`;
    let response: Response;
    try {
      response = await fetch(url, {
        method: 'POST',
        ...init,
        signal: AbortSignal.timeout(init.timeoutMs ?? REQUEST_TIMEOUT_MS),
      });
    } catch (cause) {
      throw unreachable(cause);
    }
    if (response.ok) return response;
    const text = await response.text().catch(() => '');
    let message = text;
    try {
      message = (JSON.parse(text) as { Message?: string }).Message ?? text;
    } catch {}
    throw new KuboError(response.status, message.slice(0, 300));
  }

  /** `ipfs add` as a default Kubo node runs it: CIDv0, 256 KiB chunks, dag-pb leaves, pinned. */
  async add(form: FormData): Promise<KuboAddEvent[]> {
    const response = await this.#call(
      'add',
      {
        'cid-version': '0',
        'raw-leaves': 'false',
        chunker: 'size-262144',
        pin: 'true',
        progress: 'false',
      },
      { body: form, timeoutMs: UPLOAD_TIMEOUT_MS },
    );
    const text = await response.text().catch((cause) => {
      throw unreachable(cause);
    });
    return text
      .split('\n')
      .filter((line) => line.trim())
      .map((line) => JSON.parse(line) as KuboAddEvent);
  }

  async *cat(cid: CID, range: { offset: number; length: number } | undefined): AsyncGenerator<Uint8Array> {
    const query: Record<string, string> = { arg: cid.toString(), offline: 'true' };
    if (range) Object.assign(query, { offset: String(range.offset), length: String(range.length) });
    const response = await this.#call('cat', query, { timeoutMs: UPLOAD_TIMEOUT_MS });
    if (!response.body) return;
    for await (const chunk of response.body) yield chunk;
  }

  async blockGet(cid: CID): Promise<Uint8Array> {
    try {
      const response = await this.#call('block/get', { arg: cid.toString(), offline: 'true' });
      return new Uint8Array(await response.arrayBuffer());
    } catch (error) {
      if (error instanceof KuboError && /not found|could not find/i.test(error.message)) {
        throw new BlockNotFoundError(cid);
      }
      throw error;
    }
  }

  /** Unpins `cid` (recursively); a CID that is not pinned is fine. */
  async pinRm(cid: string): Promise<void> {
    try {
      const response = await this.#call('pin/rm', { arg: cid, recursive: 'true' });
      await response.body?.cancel();
    } catch (error) {
      if (error instanceof KuboError && /not pinned/i.test(error.message)) return;
      throw error;
    }
  }
}

/** Kubo answered with an error: its message is logged, never sent to the client. */
export class KuboError extends ChaingateError {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super('CG_ERR_DEPENDENCY', 'the Kubo node refused the call', { details: message, context: { status } });
    this.message = message;
  }
}

/** The root CID of an `add` answer: the line named `name` (the last line as a fallback). */
export function addedRoot(events: KuboAddEvent[], name: string): CID {
  const line =
    events.findLast((event) => event.Name === name && event.Hash) ?? events.findLast((e) => e.Hash);
  if (!line?.Hash) throw new ChaingateError('CG_ERR_DEPENDENCY', 'the Kubo node answered no CID');
  try {
    return CID.parse(line.Hash);
  } catch (cause) {
    throw new ChaingateError('CG_ERR_DEPENDENCY', 'the Kubo node answered an invalid CID', { cause });
  }
}
