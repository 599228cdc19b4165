import type { Application } from '../../applications/applications.service.ts';
import { ChaingateError } from '../../platform/errors/chaingate-error.ts';
import type { StellarNetwork } from '../../platform/networks/stellar-networks.ts';
import type { Platform } from '../../platform/platform.ts';

/** The Stellar network an application asks for: unknown → 400, pubnet on a free plan → 403. */
export function stellarNetworkFor(
  platform: Platform,
  application: Application,
  networkId: number,
  field: string,
): StellarNetwork {
  const network = platform.stellar.get(networkId);
  if (!network) {
    const known = platform.stellar
      .all()
      .map((item) => item.networkId)
      .join(', ');
    throw new ChaingateError(
      'CG_ERR_UNKNOWN_NETWORK',
      `${field}: unknown Stellar network ${networkId} (known: ${known})`,
    );
  }
  if (network.isMainnet && application.plan !== 'premium') {
    throw new ChaingateError(
      'CG_ERR_PLAN_FORBIDS',
      `${field}: network ${networkId} is a main network; a free plan uses test networks only`,
    );
  }
  return network;
}
