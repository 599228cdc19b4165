import { keccak256, toHex } from 'viem';
import type { Application } from '../applications/applications.service.ts';
import { checksumAddress } from '../evm/services/encode-contract-call.ts';
import type { EvmContext } from '../evm/services/evm-context.ts';
import type { SendOptions } from '../evm/services/send-transaction.ts';
import { ChaingateError } from '../platform/errors/chaingate-error.ts';
import { baseUri } from './erc1155.service.ts';
import { readToken } from './read-token.ts';
import {
  type DeployTokenContractReturnType,
  deployTokenContract,
  type SendTokenCallReturnType,
  sendTokenCall,
} from './send-token-call.ts';
import { openTokenContract } from './token-contract.ts';
import { tokenSigner } from './token-signer.ts';
import { tokenAbi } from './token-standards.ts';
import { toUint256, toUint256List, type UintInput } from './token-units.ts';

const MINTER_ROLE = keccak256(toHex('MINTER_ROLE'));

export type DeployPoapParameters = SendOptions & {
  application: Application;
  chainId: number;
  name: string;
  /** Units of id 1 minted to the signer, or a list: `amount[i]` units of id i + 1. */
  amount: UintInput | readonly UintInput[];
  ipfsUri: string;
  alias: string;
  sender?: string | undefined;
};

export async function deployPoap(
  context: EvmContext,
  parameters: DeployPoapParameters,
): Promise<DeployTokenContractReturnType> {
  const amounts = Array.isArray(parameters.amount)
    ? toUint256List(parameters.amount, 'amount')
    : [toUint256(parameters.amount as UintInput, 'amount')];
  return deployTokenContract(context, {
    ...parameters,
    standard: 'POAP',
    params: [parameters.name, baseUri(parameters.ipfsUri), amounts.map(String)],
    signer: await tokenSigner(context.platform, parameters.application, parameters.sender),
  });
}

export type TransferPoapParameters = SendOptions & {
  application: Application;
  chainId: number;
  contractAddress: string;
  to: string;
  id: UintInput;
  sender?: string | undefined;
};

/**
 * Hands one badge of `id` from the signer to `to`. Only an account with the minter role may move a
 * POAP: checked on chain before signing (400), and enforced by the contract.
 */
export async function transferPoap(
  context: EvmContext,
  parameters: TransferPoapParameters,
): Promise<SendTokenCallReturnType> {
  const to = checksumAddress(parameters.to, 'to');
  const id = toUint256(parameters.id, 'id');
  const signer = await tokenSigner(context.platform, parameters.application, parameters.sender);
  const contract = await openTokenContract(context, { ...parameters, accepts: ['POAP'] });
  if (!contract.pending) {
    const minter = await readToken<boolean>(contract.network, {
      address: contract.address,
      abi: tokenAbi('POAP'),
      functionName: 'hasRole',
      args: [MINTER_ROLE, signer],
    });
    if (minter.kind !== 'value' || minter.value !== true) {
      throw new ChaingateError(
        'CG_ERR_NOT_MINTER',
        `the signer ${signer} lacks the minter role of ${contract.address}: only a minter can move a POAP`,
      );
    }
  }
  return sendTokenCall(context, {
    ...parameters,
    contract,
    signer,
    functionName: 'transfer',
    args: [to, id],
  });
}
