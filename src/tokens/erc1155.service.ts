import type { Address } from 'viem';
import type { Application } from '../applications/applications.service.ts';
import { checksumAddress } from '../evm/services/encode-contract-call.ts';
import type { EvmContext } from '../evm/services/evm-context.ts';
import type { SendOptions } from '../evm/services/send-transaction.ts';
import {
  type DeployTokenContractReturnType,
  deployTokenContract,
  type SendTokenCallReturnType,
  sendTokenCall,
} from './send-token-call.ts';
import { openTokenContract } from './token-contract.ts';
import { tokenSigner } from './token-signer.ts';
import type { TokenStandard } from './token-standards.ts';
import { requireSameLength, toUint256, toUint256List, type UintInput } from './token-units.ts';

/** A POAP is an ERC-1155 too: the ERC-1155 endpoints serve both, unless a function is the ERC-1155's own. */
export const erc1155Kinds: readonly TokenStandard[] = ['ERC1155', 'POAP'];

/** `uri(id)` appends "/<id>.json": a trailing slash of the base would be doubled. */
export function baseUri(ipfsUri: string): string {
  return ipfsUri.replace(/\/+$/, '');
}

type Erc1155Target = SendOptions & {
  application: Application;
  chainId: number;
  contractAddress: string;
  /** The signing account; default: the application's default sender. */
  sender?: string | undefined;
};

export type DeployErc1155Parameters = SendOptions & {
  application: Application;
  chainId: number;
  name: string;
  symbol: string;
  ipfsUri: string;
  royaltyRecipient: string;
  /** Whole percent, 0-100. */
  royaltyValue: number;
  alias: string;
  sender?: string | undefined;
};

export async function deployErc1155(
  context: EvmContext,
  parameters: DeployErc1155Parameters,
): Promise<DeployTokenContractReturnType> {
  const royaltyRecipient = checksumAddress(parameters.royaltyRecipient, 'royaltyRecipient');
  return deployTokenContract(context, {
    ...parameters,
    standard: 'ERC1155',
    params: [
      parameters.name,
      parameters.symbol,
      baseUri(parameters.ipfsUri),
      royaltyRecipient,
      parameters.royaltyValue,
    ],
    signer: await tokenSigner(context.platform, parameters.application, parameters.sender),
  });
}

export type MintErc1155Parameters = Erc1155Target & { to: string; id: UintInput; amount: UintInput };
export type TransferErc1155Parameters = MintErc1155Parameters;

export type BatchErc1155Parameters = Erc1155Target & {
  to: string;
  ids: readonly UintInput[];
  amounts: readonly UintInput[];
};

/** One id, checked: `to` and the id and amount as uint256. */
function singleOf(parameters: MintErc1155Parameters) {
  return {
    to: checksumAddress(parameters.to, 'to'),
    id: toUint256(parameters.id, 'id'),
    amount: toUint256(parameters.amount, 'amount'),
  };
}

/** A batch, checked: one amount per id, each a uint256. */
function batchOf(parameters: BatchErc1155Parameters) {
  const to = checksumAddress(parameters.to, 'to');
  requireSameLength(parameters.ids, parameters.amounts);
  return {
    to,
    ids: toUint256List(parameters.ids, 'ids'),
    amounts: toUint256List(parameters.amounts, 'amounts'),
  };
}

/** Signer, then contract (a stranger `sender` is a 403 before anything is read on chain), then the send. */
async function sendErc1155Call(
  context: EvmContext,
  parameters: Erc1155Target,
  accepts: readonly TokenStandard[],
  call: (signer: Address) => { functionName: string; args: unknown[] },
): Promise<SendTokenCallReturnType> {
  const signer = await tokenSigner(context.platform, parameters.application, parameters.sender);
  const contract = await openTokenContract(context, { ...parameters, accepts });
  return sendTokenCall(context, { ...parameters, contract, signer, ...call(signer) });
}

/** Mints `amount` of `id` to `to`; only the contract owner (its deployer) may (else 400 with the reason). */
export async function mintErc1155(
  context: EvmContext,
  parameters: MintErc1155Parameters,
): Promise<SendTokenCallReturnType> {
  const { to, id, amount } = singleOf(parameters);
  return sendErc1155Call(context, parameters, erc1155Kinds, () => ({
    functionName: 'mint',
    args: [to, id, amount],
  }));
}

/** Mints several ids at once; the POAP contract has no mintBatch, so only an ERC-1155 is served. */
export async function mintBatchErc1155(
  context: EvmContext,
  parameters: BatchErc1155Parameters,
): Promise<SendTokenCallReturnType> {
  const { to, ids, amounts } = batchOf(parameters);
  return sendErc1155Call(context, parameters, ['ERC1155'], () => ({
    functionName: 'mintBatch',
    args: [to, ids, amounts],
  }));
}

/** Moves the signer's own `amount` of `id` to `to` (a balance too small → 400 with the reason). */
export async function transferErc1155(
  context: EvmContext,
  parameters: TransferErc1155Parameters,
): Promise<SendTokenCallReturnType> {
  const { to, id, amount } = singleOf(parameters);
  return sendErc1155Call(context, parameters, erc1155Kinds, (signer) => ({
    functionName: 'safeTransferFrom',
    args: [signer, to, id, amount, '0x'],
  }));
}

export async function transferBatchErc1155(
  context: EvmContext,
  parameters: BatchErc1155Parameters,
): Promise<SendTokenCallReturnType> {
  const { to, ids, amounts } = batchOf(parameters);
  return sendErc1155Call(context, parameters, erc1155Kinds, (signer) => ({
    functionName: 'safeBatchTransferFrom',
    args: [signer, to, ids, amounts, '0x'],
  }));
}
