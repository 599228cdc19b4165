import { type Address, getAddress } from 'viem';
import type { Application } from '../applications/applications.service.ts';
import type { EvmContext } from '../evm/services/evm-context.ts';
import { networkFor } from '../evm/services/resolve-network.ts';
import { listApplicationTokenContracts } from './token-contracts.repository.ts';
import type { TokenStandard } from './token-standards.ts';

export type ListTokenContractsParameters = {
  application: Application;
  standard: TokenStandard;
  chainId: number | undefined;
  page: number;
  pageSize: number;
};

export type TokenContract = {
  alias: string | null;
  contractAddress: Address;
  network: number;
  standard: TokenStandard;
  /** Public status of the deploy transaction (`signed` shows as `inserted`, as everywhere). */
  deployStatus: string;
  txHash: string | null;
  createdAt: string;
};

export type ListTokenContractsReturnType = { total: number; contracts: TokenContract[] };

/** The token contracts of one standard the application deployed, newest first. */
export async function listTokenContracts(
  context: EvmContext,
  parameters: ListTokenContractsParameters,
): Promise<ListTokenContractsReturnType> {
  if (parameters.chainId !== undefined) {
    networkFor(context.platform, parameters.application, parameters.chainId, 'network');
  }
  const { rows, total } = await listApplicationTokenContracts(context.platform.db, {
    applicationId: parameters.application.id,
    standard: parameters.standard,
    chainId: parameters.chainId,
    limit: parameters.pageSize,
    offset: (parameters.page - 1) * parameters.pageSize,
  });
  return {
    total,
    contracts: rows.map((row) => ({
      alias: row.alias,
      contractAddress: getAddress(row.address),
      network: row.chain_id,
      standard: parameters.standard,
      deployStatus: row.state === 'signed' ? 'inserted' : row.state,
      txHash: row.tx_hash,
      createdAt: new Date(row.created_at).toISOString(),
    })),
  };
}
