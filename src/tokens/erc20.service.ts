import type { Address } from 'viem';
import type { Application } from '../applications/applications.service.ts';
import { checksumAddress } from '../evm/services/encode-contract-call.ts';
import type { EvmContext } from '../evm/services/evm-context.ts';
import type { SendOptions } from '../evm/services/send-transaction.ts';
import { ChaingateError } from '../platform/errors/chaingate-error.ts';
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
import { toUint256, toWholeTokens, type UintInput } from './token-units.ts';

type Erc20Target = SendOptions & {
  application: Application;
  chainId: number;
  contractAddress: string;
};

export type DeployErc20Parameters = SendOptions & {
  application: Application;
  chainId: number;
  name: string;
  symbol: string;
  /** Whole tokens: the contract mints initialSupply × 10^18 to the signer. */
  initialSupply: UintInput;
  alias: string;
  sender?: string | undefined;
};

export async function deployErc20(
  context: EvmContext,
  parameters: DeployErc20Parameters,
): Promise<DeployTokenContractReturnType> {
  const initialSupply = toWholeTokens(parameters.initialSupply, 'initialSupply');
  return deployTokenContract(context, {
    ...parameters,
    standard: 'ERC20',
    params: [parameters.name, parameters.symbol, initialSupply.toString()],
    signer: await tokenSigner(context.platform, parameters.application, parameters.sender),
  });
}

async function openErc20(context: EvmContext, parameters: Erc20Target): Promise<OpenTokenContractReturnType> {
  return openTokenContract(context, { ...parameters, accepts: ['ERC20'] });
}

export type TransferErc20Parameters = Erc20Target & {
  recipient: string;
  /** Smallest units. */
  amount: UintInput;
  sender?: string | undefined;
};

/** The signer's own tokens to `recipient` (a balance too small is refused by the estimate, 400). */
export async function transferErc20(
  context: EvmContext,
  parameters: TransferErc20Parameters,
): Promise<SendTokenCallReturnType> {
  const recipient = checksumAddress(parameters.recipient, 'recipient');
  const amount = toUint256(parameters.amount, 'amount');
  const signer = await tokenSigner(context.platform, parameters.application, parameters.sender);
  const contract = await openErc20(context, parameters);
  return sendTokenCall(context, {
    ...parameters,
    contract,
    signer,
    functionName: 'transfer',
    args: [recipient, amount],
  });
}

export type TransferErc20FromParameters = Erc20Target & {
  /** Owner of the tokens (the spec's `sender`). */
  owner: string;
  recipient: string;
  amount: UintInput;
  /** The signing account, which spends its allowance; default: the application's default sender. */
  spender?: string | undefined;
};

async function readUint(contract: OpenTokenContractReturnType, functionName: string, args: Address[]) {
  const answer = await readToken<bigint>(contract.network, {
    address: contract.address,
    abi: tokenAbi('ERC20'),
    functionName,
    args,
  });
  if (answer.kind !== 'value') {
    throw new ChaingateError(
      'CG_ERR_WRONG_TOKEN_STANDARD',
      `contractAddress ${contract.address} does not answer ${functionName} as an ERC-20 contract`,
    );
  }
  return answer.value;
}

/**
 * Moves `amount` of the owner's tokens with the signer's allowance. The allowance and the owner's
 * balance are read on chain before signing, so a move the signer may not make is a 400 that says why.
 * When the signer is the owner, it is sent as `transfer` (OpenZeppelin's transferFrom would demand
 * an allowance of the owner over its own tokens).
 */
export async function transferErc20From(
  context: EvmContext,
  parameters: TransferErc20FromParameters,
): Promise<SendTokenCallReturnType> {
  const owner = checksumAddress(parameters.owner, 'sender');
  const recipient = checksumAddress(parameters.recipient, 'recipient');
  const amount = toUint256(parameters.amount, 'amount');
  const signer = await tokenSigner(context.platform, parameters.application, parameters.spender, 'spender');
  const contract = await openErc20(context, parameters);
  const ownMove = owner === signer;
  if (!contract.pending) {
    const [allowance, balance] = await Promise.all([
      ownMove ? Promise.resolve(amount) : readUint(contract, 'allowance', [owner, signer]),
      readUint(contract, 'balanceOf', [owner]),
    ]);
    if (allowance < amount) {
      throw new ChaingateError(
        'CG_ERR_INSUFFICIENT_ALLOWANCE',
        `amount ${amount} is above the allowance of ${signer} over the tokens of sender ${owner} (${allowance}): the owner must increase it first`,
        { context: { owner, spender: signer, allowance, amount } },
      );
    }
    if (balance < amount) {
      throw new ChaingateError(
        'CG_ERR_INSUFFICIENT_TOKEN_BALANCE',
        `amount ${amount} is above the balance of sender ${owner} (${balance})`,
        { context: { owner, balance, amount } },
      );
    }
  }
  return sendTokenCall(context, {
    ...parameters,
    contract,
    signer,
    functionName: ownMove ? 'transfer' : 'transferFrom',
    args: ownMove ? [recipient, amount] : [owner, recipient, amount],
  });
}

export type ChangeErc20AllowanceParameters = Erc20Target & {
  spender: string;
  /** Smallest units to add or remove. */
  value: UintInput;
  /** The owner granting the allowance; default: the application's default sender. */
  sender?: string | undefined;
};

async function changeAllowance(
  context: EvmContext,
  parameters: ChangeErc20AllowanceParameters,
  functionName: 'increaseAllowance' | 'decreaseAllowance',
  field: string,
): Promise<SendTokenCallReturnType> {
  const spender = checksumAddress(parameters.spender, 'spender');
  const value = toUint256(parameters.value, field);
  const signer = await tokenSigner(context.platform, parameters.application, parameters.sender);
  const contract = await openErc20(context, parameters);
  return sendTokenCall(context, { ...parameters, contract, signer, functionName, args: [spender, value] });
}

/** Lets `spender` move `value` more of the signer's tokens. */
export function increaseErc20Allowance(
  context: EvmContext,
  parameters: ChangeErc20AllowanceParameters,
): Promise<SendTokenCallReturnType> {
  return changeAllowance(context, parameters, 'increaseAllowance', 'addedValue');
}

/** Takes back `value` of `spender`'s allowance; below zero is refused by the estimate (400). */
export function decreaseErc20Allowance(
  context: EvmContext,
  parameters: ChangeErc20AllowanceParameters,
): Promise<SendTokenCallReturnType> {
  return changeAllowance(context, parameters, 'decreaseAllowance', 'subtractedValue');
}
