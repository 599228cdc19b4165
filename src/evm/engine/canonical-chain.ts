import { BlockNotFoundError, type Hex } from 'viem';
import type { EvmNetwork } from '../../platform/networks/evm-networks.ts';
import { noneAsNull } from '../../platform/networks/node-failure.ts';

type Header = { number: bigint; hash: Hex; parentHash: Hex };

/** The node did not give a block (it did not say it has none): the pass that asked learns nothing. */
class BlockReadFailed extends Error {
  constructor(number: bigint, cause: unknown) {
    super(`block ${number} could not be read`, { cause });
  }
}

/**
 * The hashes of a network's recent blocks, followed block by block, so a reorg is noticed even under
 * records that were already reported confirmed (on a network with confirmation depth 0, the devnet,
 * every mined record is). `follow` answers the lowest block number whose hash changed, if any; a pass
 * whose reads failed answers nothing and is made again by the next.
 */
export class CanonicalChain {
  readonly #hashes = new Map<bigint, Hex>();
  #head: bigint | undefined;

  constructor(
    private readonly network: EvmNetwork,
    /** How far back a reorg is looked for; deeper ones are beyond what the service watches. */
    private readonly window = 64n,
  ) {}

  /** Block `number`'s header; null when the node says it has no such block. A failed read throws BlockReadFailed. */
  async #header(number: bigint): Promise<Header | null> {
    const block = await this.network.client
      .getBlock({ blockNumber: number })
      .catch(noneAsNull(BlockNotFoundError))
      .catch((error: unknown) => {
        throw new BlockReadFailed(number, error);
      });
    if (!block?.hash || block.number === null) return null;
    return { number: block.number, hash: block.hash, parentHash: block.parentHash };
  }

  async follow(head: bigint): Promise<bigint | undefined> {
    try {
      return await this.#follow(head);
    } catch (error) {
      if (error instanceof BlockReadFailed) return undefined;
      throw error;
    }
  }

  async #follow(head: bigint): Promise<bigint | undefined> {
    // An unchanged head is not read again: a block replaced at the same height shows in the next
    // block's parent hash, and on an idle network most ticks see no new block. Otherwise new blocks are
    // read from the last head on; a head that went down, a first look or a gap beyond the window read
    // the head itself.
    const last = this.#head;
    if (last === head) return undefined;
    const start = last === undefined || head <= last || last < head - this.window ? head : last + 1n;
    // What this pass reads is kept apart until it ends. After a read that failed (a timeout, a rate
    // limit, a provider's "header not found") the pass ends with nothing kept, and the next one starts
    // over from the same hashes: kept as it went, the hashes a walk back had already replaced would hide
    // the rest of a reorg from the next pass, which would then report too shallow a fork point.
    const read = new Map<bigint, Hex>();
    const known = (number: bigint) => (read.has(number) ? read.get(number) : this.#hashes.get(number));
    const keep = () => {
      for (const [number, hash] of read) this.#hashes.set(number, hash);
    };
    let forkPoint: bigint | undefined;
    for (let number = start; number <= head; number++) {
      const header = await this.#header(number);
      if (!header) {
        keep();
        return forkPoint;
      }
      let child = header;
      // Walk back while the stored parent is not the one this chain names.
      while (known(child.number - 1n) !== undefined && known(child.number - 1n) !== child.parentHash) {
        const parent = await this.#header(child.number - 1n);
        if (!parent) break;
        read.set(parent.number, parent.hash);
        forkPoint = parent.number;
        child = parent;
      }
      const stored = known(header.number);
      if (stored !== undefined && stored !== header.hash) {
        forkPoint = forkPoint === undefined || header.number < forkPoint ? header.number : forkPoint;
      }
      read.set(header.number, header.hash);
    }
    keep();
    this.#head = head;
    for (const number of this.#hashes.keys()) if (number < head - this.window) this.#hashes.delete(number);
    return forkPoint;
  }
}
