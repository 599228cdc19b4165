import type { Hex } from 'viem';
import type { EvmNetwork } from '../../platform/networks/evm-networks.ts';

type Header = { number: bigint; hash: Hex; parentHash: Hex };

/**
 * The hashes of a network's recent blocks, followed block by block, so a reorg is noticed even under
 * records that were already reported confirmed (on a network with confirmation depth 0, the devnet,
 * every mined record is). `follow` answers the lowest block number whose hash changed, if any.
 */
export class CanonicalChain {
  readonly #hashes = new Map<bigint, Hex>();
  #head: bigint | undefined;

  constructor(
    private readonly network: EvmNetwork,
    /** How far back a reorg is looked for; deeper ones are beyond what the service watches. */
    private readonly window = 64n,
  ) {}

  async #header(number: bigint): Promise<Header | null> {
    const block = await this.network.client.getBlock({ blockNumber: number }).catch(() => null);
    if (!block?.hash || block.number === null) return null;
    return { number: block.number, hash: block.hash, parentHash: block.parentHash };
  }

  async follow(head: bigint): Promise<bigint | undefined> {
    // An unchanged head is not read again: a block replaced at the same height shows in the next
    // block's parent hash, and on an idle network most ticks see no new block. Otherwise new blocks are
    // read from the last head on; a head that went down, a first look or a gap beyond the window read
    // the head itself.
    const last = this.#head;
    if (last === head) return undefined;
    const start = last === undefined || head <= last || last < head - this.window ? head : last + 1n;
    let forkPoint: bigint | undefined;
    for (let number = start; number <= head; number++) {
      const header = await this.#header(number);
      if (!header) return forkPoint;
      let child = header;
      // Walk back while the stored parent is not the one this chain names.
      while (
        this.#hashes.has(child.number - 1n) &&
        this.#hashes.get(child.number - 1n) !== child.parentHash
      ) {
        const parent = await this.#header(child.number - 1n);
        if (!parent) break;
        this.#hashes.set(parent.number, parent.hash);
        forkPoint = parent.number;
        child = parent;
      }
      if (this.#hashes.has(header.number) && this.#hashes.get(header.number) !== header.hash) {
        forkPoint = forkPoint === undefined || header.number < forkPoint ? header.number : forkPoint;
      }
      this.#hashes.set(header.number, header.hash);
    }
    this.#head = head;
    for (const number of this.#hashes.keys()) if (number < head - this.window) this.#hashes.delete(number);
    return forkPoint;
  }
}
