import { ChaingateError } from '../../platform/errors/chaingate-error.ts';
import type { EvmNetwork } from '../../platform/networks/evm-networks.ts';

export type Fees = { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint };

/**
 * EIP-1559 fees per network, asked of the node at most once a second: a burst of sends shares one
 * answer instead of each paying a round trip.
 */
export class FeeOracle {
  readonly #cache = new Map<number, { fees: Promise<Fees>; at: number }>();

  constructor(private readonly maxAgeMs = 1000) {}

  current(network: EvmNetwork): Promise<Fees> {
    const cached = this.#cache.get(network.chainId);
    if (cached && Date.now() - cached.at < this.maxAgeMs) return cached.fees;
    const fees = network.client.estimateFeesPerGas().then(
      (estimate) => ({
        maxFeePerGas: estimate.maxFeePerGas,
        maxPriorityFeePerGas: estimate.maxPriorityFeePerGas,
      }),
      (error: Error) => {
        // viem's answer when the latest block has no base fee: the engine signs EIP-1559 only.
        if (error.name !== 'Eip1559FeesNotSupportedError') throw error;
        throw new ChaingateError(
          'CG_ERR_NETWORK_UNSUPPORTED',
          `network ${network.chainId} has no EIP-1559 base fee (a chain before London): the service sends EIP-1559 transactions only`,
        );
      },
    );
    this.#cache.set(network.chainId, { fees, at: Date.now() });
    fees.catch(() => this.#cache.delete(network.chainId));
    return fees;
  }
}

// biome-ignore lint/complexity/useMathMinMax: Math.max does not take bigints
const maxOf = (...values: bigint[]): bigint => values.reduce((a, b) => (b > a ? b : a));

/** Fees for a replacement: at least 12.5 % above the previous attempt (nodes want ≥ 10 %) and today's fees. */
export function bumpedFees(previous: Fees, current: Fees): Fees {
  const bump = (value: bigint) => value + (value * 125n) / 1000n + 1n;
  const tip = maxOf(bump(previous.maxPriorityFeePerGas), current.maxPriorityFeePerGas);
  const maxFee = maxOf(bump(previous.maxFeePerGas), current.maxFeePerGas, tip);
  return { maxFeePerGas: maxFee, maxPriorityFeePerGas: tip };
}
