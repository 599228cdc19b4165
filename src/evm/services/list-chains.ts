import type { Application } from '../../applications/applications.service.ts';
import type { EvmNetwork } from '../../platform/networks/evm-networks.ts';
import type { EvmContext } from './evm-context.ts';

const EVM_TYPE_ID = 1;

function toChainEntry(network: EvmNetwork) {
  return {
    id: network.chainId,
    name: network.name,
    symbol: network.symbol,
    isMainnet: network.isMainnet,
    explorer: network.explorer,
    testnetFaucet: network.faucet,
    typeId: EVM_TYPE_ID,
    typeName: 'EVM',
    activeForTransactions: true,
  };
}

/** The networks by kind; a free plan sees test networks only. */
export function listChains(context: EvmContext, parameters: { application: Application }) {
  const networks = context.platform.evm.all().sort((a, b) => a.chainId - b.chainId);
  return {
    mainnetNetworks:
      parameters.application.plan === 'premium' ? networks.filter((n) => n.isMainnet).map(toChainEntry) : [],
    testnetNetworks: networks.filter((n) => !n.isMainnet).map(toChainEntry),
  };
}
