import { type Address, zeroAddress } from 'viem';
import type { Application } from '../applications/applications.service.ts';
import { ensureContract } from '../evm/contracts/contract-code.ts';
import { checksumAddress } from '../evm/services/encode-contract-call.ts';
import type { EvmContext } from '../evm/services/evm-context.ts';
import { networkFor } from '../evm/services/resolve-network.ts';
import { setBounded } from '../platform/caches/bounded.ts';
import { ChaingateError } from '../platform/errors/chaingate-error.ts';
import type { EvmNetwork } from '../platform/networks/evm-networks.ts';
import { readToken } from './read-token.ts';
import { findDeployedTokenContract } from './token-contracts.repository.ts';
import {
  isTokenStandard,
  standardLabels,
  standardWithArticle,
  type TokenStandard,
  tokenAbi,
} from './token-standards.ts';

/** ERC-165 interface ids (EIP-721, EIP-1155, OpenZeppelin IAccessControl). */
const interfaceIds = { erc721: '0x80ac58cd', erc1155: '0xd9b67a26', accessControl: '0x7965db0b' } as const;

// Code never changes once deployed, so neither does its standard: learnt once per address (bounded).
const MAX_CACHED = 10_000;
const detected = new Map<string, TokenStandard | null>();

async function supportsInterface(network: EvmNetwork, address: Address, id: string): Promise<boolean> {
  const answer = await readToken<boolean>(network, {
    address,
    abi: tokenAbi('ERC721'),
    functionName: 'supportsInterface',
    args: [id],
  });
  return answer.kind === 'value' && answer.value === true;
}

/**
 * The standard of a contract not deployed through this service, from what it answers: ERC-165 for
 * ERC-721 and ERC-1155 (an ERC-1155 with role-based access is taken for a POAP), and the shape of
 * `totalSupply()` and `balanceOf(address(0))` for ERC-20, which has no interface id.
 */
export async function detectTokenStandard(
  network: EvmNetwork,
  address: Address,
): Promise<TokenStandard | null> {
  const erc20 = tokenAbi('ERC20');
  const [is721, is1155, hasRoles, supply, balance] = await Promise.all([
    supportsInterface(network, address, interfaceIds.erc721),
    supportsInterface(network, address, interfaceIds.erc1155),
    supportsInterface(network, address, interfaceIds.accessControl),
    readToken(network, { address, abi: erc20, functionName: 'totalSupply' }),
    readToken(network, { address, abi: erc20, functionName: 'balanceOf', args: [zeroAddress] }),
  ]);
  if (is721) return 'ERC721';
  if (is1155) return hasRoles ? 'POAP' : 'ERC1155';
  if (supply.kind === 'value' && balance.kind === 'value') return 'ERC20';
  return null;
}

export type OpenTokenContractParameters = {
  application: Application;
  chainId: number;
  contractAddress: string;
  /** The standards the endpoint serves (a POAP is also an ERC-1155). */
  accepts: readonly TokenStandard[];
};

export type OpenTokenContractReturnType = {
  network: EvmNetwork;
  address: Address;
  standard: TokenStandard;
  /** Deployed by this service and not mined yet: nothing can be read from it, calls cannot be estimated. */
  pending: boolean;
};

function wrongKind(address: Address, chainId: number, found: TokenStandard | null, wanted: TokenStandard) {
  const what = found
    ? `${standardWithArticle(found)} contract`
    : 'a contract of no token standard this service serves';
  return new ChaingateError(
    'CG_ERR_WRONG_TOKEN_STANDARD',
    `contractAddress ${address} on network ${chainId} is not ${standardWithArticle(wanted)} contract: it is ${what}`,
    { context: { address, chainId, found, wanted } },
  );
}

/**
 * The network and contract a token endpoint works on, each checked: a known network the plan allows,
 * code at the address (or a deploy of this service still pending), and a contract of the endpoint's
 * standard. Anything else is a 400 that says what is wrong.
 */
export async function openTokenContract(
  context: EvmContext,
  parameters: OpenTokenContractParameters,
): Promise<OpenTokenContractReturnType> {
  const { platform } = context;
  const network = networkFor(platform, parameters.application, parameters.chainId, 'network');
  const address = checksumAddress(parameters.contractAddress, 'contractAddress');
  const wanted = parameters.accepts[0] as TokenStandard;
  const presence = await ensureContract(platform.db, network, address);
  const key = `${network.chainId}:${address.toLowerCase()}`;
  let standard = presence === 'deployed' ? detected.get(key) : undefined;
  if (standard === undefined) {
    const row = await findDeployedTokenContract(platform.db, network.chainId, address);
    if (row && isTokenStandard(row.standard)) standard = row.standard;
    else if (presence === 'pending') {
      throw new ChaingateError(
        'CG_ERR_WRONG_TOKEN_STANDARD',
        `contractAddress ${address} is being deployed with a spec that is not the ${standardLabels[wanted]} standard contract`,
      );
    } else standard = await detectTokenStandard(network, address);
    if (presence === 'deployed') {
      setBounded(detected, key, standard, MAX_CACHED);
    }
  }
  if (standard === null || !parameters.accepts.includes(standard)) {
    throw wrongKind(address, network.chainId, standard, wanted);
  }
  return { network, address, standard, pending: presence === 'pending' };
}

/** A read needs the contract on chain: one still being deployed answers 400 until it is mined. */
export function requireMined(contract: OpenTokenContractReturnType): void {
  if (contract.pending) {
    throw new ChaingateError(
      'CG_ERR_CONTRACT_PENDING',
      `contractAddress ${contract.address} is still being deployed (its deploy transaction is not mined yet); retry once it is`,
    );
  }
}
