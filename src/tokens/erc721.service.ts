import { randomUUID } from 'node:crypto';
import type { Address } from 'viem';
import type { Application } from '../applications/applications.service.ts';
import { checksumAddress } from '../evm/services/encode-contract-call.ts';
import type { EvmContext } from '../evm/services/evm-context.ts';
import type { SendOptions } from '../evm/services/send-transaction.ts';
import { ChaingateError, quote } from '../platform/errors/chaingate-error.ts';
import { keyInUse } from '../platform/idempotency/idempotency.ts';
import {
  attachIpfsHashTransaction,
  claimIpfsHash,
  isClaimedWithKey,
  releaseIpfsHash,
} from './ipfs-hash-claims.repository.ts';
import { readToken } from './read-token.ts';
import {
  type DeployTokenContractReturnType,
  deployTokenContract,
  type SendTokenCallReturnType,
  sendTokenCall,
} from './send-token-call.ts';
import { type OpenTokenContractReturnType, openTokenContract } from './token-contract.ts';
import { tokenSigner } from './token-signer.ts';
import { tokenAbi } from './token-standards.ts';
import { toUint256, type UintInput } from './token-units.ts';

type Erc721Target = SendOptions & {
  application: Application;
  chainId: number;
  contractAddress: string;
  /** The signing account; default: the application's default sender. */
  sender?: string | undefined;
};

export type DeployErc721Parameters = SendOptions & {
  application: Application;
  chainId: number;
  name: string;
  symbol: string;
  alias?: string | undefined;
  sender?: string | undefined;
};

export async function deployErc721(
  context: EvmContext,
  parameters: DeployErc721Parameters,
): Promise<DeployTokenContractReturnType> {
  return deployTokenContract(context, {
    ...parameters,
    standard: 'ERC721',
    params: [parameters.name, parameters.symbol],
    signer: await tokenSigner(context.platform, parameters.application, parameters.sender),
    alias: parameters.alias,
  });
}

/** The owner of an NFT, or undefined when no such token exists. */
async function ownerOf(contract: OpenTokenContractReturnType, tokenId: bigint): Promise<Address | undefined> {
  const answer = await readToken<Address>(contract.network, {
    address: contract.address,
    abi: tokenAbi('ERC721'),
    functionName: 'ownerOf',
    args: [tokenId],
  });
  if (answer.kind === 'value') return answer.value;
  if (answer.kind === 'reverted') return undefined;
  throw new ChaingateError(
    'CG_ERR_WRONG_TOKEN_STANDARD',
    `contractAddress ${contract.address} does not answer ownerOf as an ERC-721 contract`,
  );
}

async function readErc721<T>(
  contract: OpenTokenContractReturnType,
  functionName: string,
  args: unknown[],
): Promise<T | undefined> {
  const answer = await readToken<T>(contract.network, {
    address: contract.address,
    abi: tokenAbi('ERC721'),
    functionName,
    args,
  });
  return answer.kind === 'value' ? answer.value : undefined;
}

export type MintErc721Parameters = Erc721Target & {
  recipientAddress: string;
  tokenId: UintInput;
  ipfsUri: string;
  ipfsHash: string;
  /** Whole percent (0-100) of each sale owed to the recipient (ERC-2981). */
  royaltyPercentage?: number | undefined;
};

/**
 * Mints an NFT with its metadata URI and an ERC-2981 royalty for the recipient. A token id already
 * minted, or an ipfsHash already minted or being minted on the contract, is a 400 before signing (the
 * contract refuses a repeated ipfsHash too).
 */
export async function mintErc721(
  context: EvmContext,
  parameters: MintErc721Parameters,
): Promise<SendTokenCallReturnType> {
  const { db } = context.platform;
  const recipient = checksumAddress(parameters.recipientAddress, 'recipientAddress');
  const tokenId = toUint256(parameters.tokenId, 'tokenId');
  const signer = await tokenSigner(context.platform, parameters.application, parameters.sender);
  const contract = await openTokenContract(context, { ...parameters, accepts: ['ERC721'] });
  if (!contract.pending && (await ownerOf(contract, tokenId)) !== undefined) {
    throw new ChaingateError(
      'CG_ERR_TOKEN_EXISTS',
      `tokenId ${tokenId} is already minted on ${contract.address}`,
    );
  }
  const duplicate = () =>
    new ChaingateError(
      'CG_ERR_DUPLICATE_IPFS_HASH',
      `ipfsHash '${quote(parameters.ipfsHash)}' is already minted (or being minted) on ${contract.address}`,
    );
  const key = parameters.idempotency?.key;
  const claim = {
    chainId: contract.network.chainId,
    contractAddress: contract.address,
    ipfsHash: parameters.ipfsHash,
    claimId: randomUUID(),
    applicationId: key === undefined ? null : parameters.application.id,
    idempotencyKey: key ?? null,
  };
  if (!(await claimIpfsHash(db, claim))) {
    // A repetition of a keyed mint still on its way (the route found no stored transaction for the key):
    // the hash is this request's own, so say the key is in use; asked again, it answers the mint.
    if (await isClaimedWithKey(db, claim)) throw keyInUse();
    throw duplicate();
  }
  let sent: SendTokenCallReturnType;
  try {
    sent = await sendTokenCall(context, {
      ...parameters,
      contract,
      signer,
      functionName: 'mint',
      args: [recipient, tokenId, parameters.ipfsUri, parameters.ipfsHash, parameters.royaltyPercentage ?? 0],
    });
  } catch (error) {
    await releaseIpfsHash(db, claim.claimId);
    // Minted outside this service (no claim here): the contract's own refusal, with the same code.
    if (error instanceof ChaingateError && error.shortMessage.includes('DuplicateIpfsHash('))
      throw duplicate();
    throw error;
  }
  await attachIpfsHashTransaction(db, claim.claimId, sent.id);
  return sent;
}

export type TransferErc721Parameters = Erc721Target & {
  id: UintInput;
  from: string;
  to: string;
};

/**
 * Moves an NFT from `from` to `to` with `safeTransferFrom`. Read on chain before signing: `from` owns
 * the token, and the signer is `from` or approved for the token or for all of `from`'s tokens.
 */
export async function transferErc721(
  context: EvmContext,
  parameters: TransferErc721Parameters,
): Promise<SendTokenCallReturnType> {
  const from = checksumAddress(parameters.from, 'from');
  const to = checksumAddress(parameters.to, 'to');
  const id = toUint256(parameters.id, 'id');
  const signer = await tokenSigner(context.platform, parameters.application, parameters.sender);
  const contract = await openTokenContract(context, { ...parameters, accepts: ['ERC721'] });
  if (!contract.pending) {
    const owner = await ownerOf(contract, id);
    if (owner === undefined) {
      throw new ChaingateError(
        'CG_ERR_NONEXISTENT_TOKEN',
        `id: no token ${id} exists on ${contract.address}`,
      );
    }
    if (owner !== from) {
      throw new ChaingateError(
        'CG_ERR_NOT_TOKEN_OWNER',
        `from ${from} does not own token ${id} (${owner} does)`,
      );
    }
    if (signer !== from) {
      const [approved, operator] = await Promise.all([
        readErc721<Address>(contract, 'getApproved', [id]),
        readErc721<boolean>(contract, 'isApprovedForAll', [from, signer]),
      ]);
      if (approved !== signer && operator !== true) {
        throw new ChaingateError(
          'CG_ERR_NOT_TOKEN_OWNER',
          `the signer ${signer} is neither from (${from}) nor approved for token ${id}; to sign as the owner, pass sender: from (one of this application's senders)`,
        );
      }
    }
  }
  return sendTokenCall(context, {
    ...parameters,
    contract,
    signer,
    functionName: 'safeTransferFrom',
    args: [from, to, id],
  });
}
