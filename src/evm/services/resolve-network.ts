import type { Application } from '../../applications/applications.service.ts';
import { ChaingateError } from '../../platform/errors/chaingate-error.ts';
import type { EvmNetwork } from '../../platform/networks/evm-networks.ts';
import type { Platform } from '../../platform/platform.ts';

/** The network an application asks for: unknown → 400, a main network on a free plan → 403. */
export function networkFor(
  platform: Platform,
  application: Application,
  chainId: number,
  field = 'blockchainNetwork',
): EvmNetwork {
  const network = platform.evm.get(chainId);
  if (!network) throw new ChaingateError('CG_ERR_UNKNOWN_NETWORK', `${field}: unknown network ${chainId}`);
  if (network.isMainnet && application.plan !== 'premium') {
    throw new ChaingateError(
      'CG_ERR_PLAN_FORBIDS',
      `${field}: network ${chainId} is a main network; a free plan uses test networks only`,
    );
  }
  return network;
}
