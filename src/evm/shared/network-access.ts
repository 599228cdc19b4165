import type { Application } from '../../applications/applications.service.ts';
import type { EvmNetwork } from '../../platform/chains/evm-networks.ts';
import { BadRequestError, ForbiddenError } from '../../platform/http/gateway-error.ts';
import type { Platform } from '../../platform/platform.ts';

/** The network an application asks for: unknown → 400, a main network on a free plan → 403. */
export function networkFor(
  platform: Platform,
  application: Application,
  chainId: number,
  field = 'blockchainNetwork',
): EvmNetwork {
  const network = platform.evm.get(chainId);
  if (!network) throw new BadRequestError(`${field}: unknown network ${chainId}`, 'CG_ERR_UNKNOWN_NETWORK');
  if (network.isMainnet && application.plan !== 'premium') {
    throw new ForbiddenError(
      `${field}: network ${chainId} is a main network; a free plan uses test networks only`,
      'CG_ERR_PLAN_FORBIDS',
    );
  }
  return network;
}
