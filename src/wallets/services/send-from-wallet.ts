import {
  type SendContractCallParameters,
  type SendContractCallReturnType,
  sendContractCall,
} from '../../evm/services/send-contract-call.ts';
import {
  type TransferNativeParameters,
  type TransferNativeReturnType,
  transferNative,
} from '../../evm/services/transfer-native.ts';
import type { WalletsContext } from '../wallets-context.ts';
import { unlockWallet } from './unlock-wallet.ts';

/** What unlocks the wallet for one send. */
export type WalletUnlock = { strategy: number; pin: string };

export type SendFromWalletParameters = Omit<SendContractCallParameters, 'senderKinds'> & WalletUnlock;

/** A state-changing call signed by a custodied wallet: one unlock, then the one sending path. */
export async function sendFromWallet(
  context: WalletsContext,
  parameters: SendFromWalletParameters,
): Promise<SendContractCallReturnType> {
  const { strategy, pin, ...call } = parameters;
  await unlockWallet(context, { application: call.application, address: call.sender, strategy, pin });
  return sendContractCall(context.evm, { ...call, senderKinds: ['custodied'] });
}

export type TransferFromWalletParameters = Omit<TransferNativeParameters, 'senderKinds'> & WalletUnlock;

/** A native transfer from a custodied wallet: one unlock, then the one sending path. */
export async function transferFromWallet(
  context: WalletsContext,
  parameters: TransferFromWalletParameters,
): Promise<TransferNativeReturnType> {
  const { strategy, pin, ...transfer } = parameters;
  await unlockWallet(context, { application: transfer.application, address: transfer.sender, strategy, pin });
  return transferNative(context.evm, { ...transfer, senderKinds: ['custodied'] });
}
