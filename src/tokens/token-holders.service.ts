import { type Address, BlockNotFoundError, getAddress, type Hex, numberToHex } from 'viem';
import type { Application } from '../applications/applications.service.ts';
import { checksumAddress } from '../evm/services/encode-contract-call.ts';
import type { EvmContext } from '../evm/services/evm-context.ts';
import { networkFor } from '../evm/services/resolve-network.ts';
import type { Database } from '../platform/db/database.ts';
import { ChaingateError } from '../platform/errors/chaingate-error.ts';
import type { EvmNetwork } from '../platform/networks/evm-networks.ts';
import { findDeployedTokenContract } from './token-contracts.repository.ts';
import {
  advanceHolderScan,
  applyBalanceDeltas,
  findHolderScan,
  insertHolderScan,
  listHolderBalances,
  resetHolderScan,
} from './token-holders.repository.ts';
import { isTokenStandard, standardWithArticle, type TokenStandard } from './token-standards.ts';
import { balanceDeltas, type RawTransferLog, transferTopics } from './transfer-logs.ts';

/** Blocks per `eth_getLogs` at first; halved when a node refuses a range as too large. */
const LOG_RANGE = 2_000n;
/** Ranges one read scans at most: an old contract catches up over a few reads instead of one long one. */
const MAX_RANGES_PER_READ = 50;

export type ScanState = { scannedBlock: bigint | null; upToDate: boolean };

function isRangeRefusal(error: unknown): boolean {
  const text =
    `${(error as { details?: string }).details ?? ''} ${(error as Error).message ?? ''}`.toLowerCase();
  return /range|too many|limit|exceed|too large|10000 results/.test(text);
}

async function getLogs(
  network: EvmNetwork,
  address: Address,
  standard: TokenStandard,
  fromBlock: bigint,
  toBlock: bigint,
): Promise<RawTransferLog[]> {
  try {
    return (await network.client.request({
      method: 'eth_getLogs',
      params: [
        {
          address,
          fromBlock: numberToHex(fromBlock),
          toBlock: numberToHex(toBlock),
          topics: [transferTopics(standard)],
        },
      ],
    } as never)) as RawTransferLog[];
  } catch (error) {
    if (isRangeRefusal(error))
      throw Object.assign(new Error('range refused'), { rangeRefused: true, cause: error });
    throw error;
  }
}

/** The hash of block `number`: null when the node says it has no such block, undefined when the read failed. */
async function blockHash(network: EvmNetwork, number: bigint): Promise<Hex | null | undefined> {
  try {
    return (await network.client.getBlock({ blockNumber: number })).hash ?? null;
  } catch (error) {
    return error instanceof BlockNotFoundError ? null : undefined;
  }
}

/**
 * Brings the holders index of a contract up to the network's confirmed head: reads the Transfer
 * logs after the last scanned block with `eth_getLogs` in bounded ranges and applies each range's net
 * changes with a compare-and-set on the scanned block, so concurrent readers (or processes) never
 * apply a range twice. A scanned block the chain no longer has (a reorg) restarts the index.
 */
export async function syncTokenHolders(
  db: Database,
  network: EvmNetwork,
  contract: { address: Address; standard: TokenStandard; deployBlock: bigint },
): Promise<ScanState> {
  const key = { chainId: network.chainId, contractAddress: contract.address };
  await insertHolderScan(db, { ...key, standard: contract.standard, deployBlock: contract.deployBlock });
  let scan = await findHolderScan(db, key);
  if (!scan) throw new Error('holder scan row vanished');
  let scanned = BigInt(scan.scanned_block);
  const scannedHash = scan.scanned_block_hash ? await blockHash(network, scanned) : null;
  // A failed read of the scanned block says nothing of a reorg: the index is kept as it is (restarting
  // it would read every log again), and answered as not up to date.
  if (scannedHash === undefined)
    return { scannedBlock: scanned < contract.deployBlock ? null : scanned, upToDate: false };
  if (scan.scanned_block_hash && scannedHash !== scan.scanned_block_hash) {
    await db.transaction((tx) =>
      resetHolderScan(tx, { ...key, fromScanned: scanned, deployBlock: contract.deployBlock }),
    );
    scan = await findHolderScan(db, key);
    scanned = BigInt(scan?.scanned_block ?? contract.deployBlock - 1n);
  }
  const head = (await network.client.getBlockNumber({ cacheTime: 0 })) - BigInt(network.confirmations);
  let range = LOG_RANGE;
  for (let ranges = 0; scanned < head && ranges < MAX_RANGES_PER_READ; ranges++) {
    const from = scanned + 1n;
    const to = from + range - 1n < head ? from + range - 1n : head;
    // The hash of the range's last block before and after reading its logs: equal means no reorg
    // under the range while it was read, so the logs and the stored hash are of one chain.
    const hash = await blockHash(network, to);
    if (!hash) break;
    let logs: RawTransferLog[];
    try {
      logs = await getLogs(network, contract.address, contract.standard, from, to);
    } catch (error) {
      if (!(error as { rangeRefused?: boolean }).rangeRefused) throw error;
      if (range === 1n) {
        throw new ChaingateError(
          'CG_ERR_DEPENDENCY',
          `the node of network ${network.chainId} refuses eth_getLogs`,
          {
            cause: error,
          },
        );
      }
      range /= 2n;
      continue;
    }
    if ((await blockHash(network, to)) !== hash) break;
    const deltas = balanceDeltas(contract.standard, logs);
    const advanced = await db.transaction(async (tx) => {
      if (!(await advanceHolderScan(tx, { ...key, fromScanned: scanned, toBlock: to, toBlockHash: hash })))
        return false;
      await applyBalanceDeltas(tx, key, deltas);
      return true;
    });
    // Another reader moved the scan: its state is as good as ours.
    if (!advanced)
      return { scannedBlock: BigInt((await findHolderScan(db, key))?.scanned_block ?? to), upToDate: false };
    scanned = to;
  }
  return { scannedBlock: scanned < contract.deployBlock ? null : scanned, upToDate: scanned >= head };
}

export type ListTokenHoldersParameters = {
  application: Application;
  chainId: number;
  contractAddress: string;
  /** The standards of the path (an ERC-1155 path also serves a POAP contract). */
  accepts: readonly TokenStandard[];
  tokenId: bigint | undefined;
  page: number;
  pageSize: number;
};

export type TokenHolder = { address: Address; tokenId: bigint | null; balance: bigint };

export type ListTokenHoldersReturnType = ScanState & {
  contractAddress: Address;
  standard: TokenStandard;
  total: number;
  holders: TokenHolder[];
};

/** A page of a contract's holders, for a contract the calling application deployed; others are 404. */
export async function listTokenHolders(
  context: EvmContext,
  parameters: ListTokenHoldersParameters,
): Promise<ListTokenHoldersReturnType> {
  const { db } = context.platform;
  const network = networkFor(context.platform, parameters.application, parameters.chainId, 'network');
  const address = checksumAddress(parameters.contractAddress, 'contractAddress');
  const row = await findDeployedTokenContract(db, network.chainId, address);
  if (!row || row.application_id !== parameters.application.id) {
    throw new ChaingateError(
      'CG_ERR_NOT_FOUND',
      `contractAddress ${address} on network ${network.chainId} is not a contract this application deployed`,
    );
  }
  const standard = row.standard;
  if (!isTokenStandard(standard) || !parameters.accepts.includes(standard)) {
    const wanted = standardWithArticle(parameters.accepts[0] as TokenStandard);
    const found = isTokenStandard(standard)
      ? `${standardWithArticle(standard)} contract`
      : 'deployed with a spec of no token standard';
    throw new ChaingateError(
      'CG_ERR_WRONG_TOKEN_STANDARD',
      `contractAddress ${address} is not ${wanted} contract: it is ${found}`,
    );
  }
  const base = { contractAddress: address, standard };
  if (row.block_number === null)
    return { ...base, scannedBlock: null, upToDate: false, total: 0, holders: [] };
  const state = await syncTokenHolders(db, network, {
    address,
    standard,
    deployBlock: BigInt(row.block_number),
  });
  const { rows, total } = await listHolderBalances(db, {
    chainId: network.chainId,
    contractAddress: address,
    grouping: standard === 'ERC20' || standard === 'ERC721' ? 'holder' : 'holderAndId',
    tokenId: parameters.tokenId,
    limit: parameters.pageSize,
    offset: (parameters.page - 1) * parameters.pageSize,
  });
  return {
    ...base,
    ...state,
    total,
    holders: rows.map((r) => ({
      address: getAddress(r.holder),
      tokenId: r.token_id === null ? null : BigInt(r.token_id),
      balance: BigInt(r.balance),
    })),
  };
}
