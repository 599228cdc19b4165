import { ChaingateError } from '../errors/chaingate-error.ts';

/** Thrown while streaming once an upload passes the configured limit; the upload is then discarded. */
export function uploadTooLarge(maxBytes: number): ChaingateError {
  return new ChaingateError('CG_ERR_BODY_TOO_LARGE', `the upload is over the limit of ${maxBytes} bytes`, {
    context: { maxBytes },
  });
}

/** Passes `source` through, throwing `uploadTooLarge` as soon as more than `maxBytes` went by. */
export async function* limitBytes(
  source: AsyncIterable<Uint8Array>,
  maxBytes: number,
): AsyncGenerator<Uint8Array> {
  let total = 0;
  for await (const chunk of source) {
    total += chunk.byteLength;
    if (total > maxBytes) throw uploadTooLarge(maxBytes);
    yield chunk;
  }
}
