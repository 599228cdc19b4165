/**
 * A build log kept within a size: its beginning (where cargo names what failed first) and its end
 * (where the failure is), with a line saying how much was left out between them. A build that prints
 * gigabytes costs its head and tail, never the service's memory.
 */
export class BoundedLog {
  readonly #headBytes: number;
  readonly #tailBytes: number;
  #head: Buffer[] = [];
  #headLength = 0;
  #tail: Buffer[] = [];
  #tailLength = 0;
  #dropped = 0;

  constructor(options: { headBytes: number; tailBytes: number }) {
    this.#headBytes = options.headBytes;
    this.#tailBytes = options.tailBytes;
  }

  write(chunk: Buffer | string): void {
    let bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    if (this.#headLength < this.#headBytes) {
      const take = bytes.subarray(0, this.#headBytes - this.#headLength);
      this.#head.push(take);
      this.#headLength += take.length;
      bytes = bytes.subarray(take.length);
    }
    if (bytes.length === 0) return;
    this.#tail.push(bytes);
    this.#tailLength += bytes.length;
    while (this.#tailLength > this.#tailBytes) {
      const first = this.#tail[0] as Buffer;
      const excess = this.#tailLength - this.#tailBytes;
      if (first.length <= excess) {
        this.#tail.shift();
        this.#tailLength -= first.length;
        this.#dropped += first.length;
      } else {
        this.#tail[0] = first.subarray(excess);
        this.#tailLength -= excess;
        this.#dropped += excess;
      }
    }
  }

  /** The kept text; NUL characters (which PostgreSQL text refuses) are replaced. */
  text(): string {
    const head = Buffer.concat(this.#head).toString('utf8');
    const tail = Buffer.concat(this.#tail).toString('utf8');
    const cut = this.#dropped > 0 ? `\n[… ${this.#dropped} bytes of output left out …]\n` : '';
    return `${head}${cut}${tail}`.replaceAll('\u0000', '\uFFFD');
  }
}
