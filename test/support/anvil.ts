import { type AnvilDevnet, startAnvilDevnet } from '../../src/platform/devnet/anvil-devnet.ts';

export type AnvilInstance = AnvilDevnet;

/** An in-memory anvil (chain id 31337) on a free port for one test file; stop it in afterAll. */
export function startAnvil(options: { blockTime?: number } = {}): Promise<AnvilInstance> {
  return startAnvilDevnet({ stateDir: undefined, port: 0, blockTimeSeconds: options.blockTime });
}
