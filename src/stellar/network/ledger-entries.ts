import { Address, Keypair, xdr } from '@stellar/stellar-sdk';
import type { StellarNetwork } from '../../platform/networks/stellar-networks.ts';
import { rpcCall } from './rpc-call.ts';

export type AccountEntry = { balanceStroops: bigint; sequence: bigint };

export type TtlView = {
  latestLedger: number;
  /** Undefined when the RPC does not report one. */
  liveUntilLedger: number | undefined;
  isAlive: boolean;
};

export type InstanceEntry = TtlView & {
  /** The wasm the instance runs; null for a Stellar Asset Contract (built into the network). */
  wasmHash: Buffer | null;
};

export type CodeEntry = TtlView & { code: Buffer };

function ttlView(latestLedger: number, liveUntilLedger: number | undefined): TtlView {
  return {
    latestLedger,
    liveUntilLedger,
    isAlive: liveUntilLedger === undefined || liveUntilLedger >= latestLedger,
  };
}

export function accountKey(address: string): xdr.LedgerKey {
  return xdr.LedgerKey.account(
    new xdr.LedgerKeyAccount({ accountId: Keypair.fromPublicKey(address).xdrAccountId() }),
  );
}

export function instanceKey(contractAddress: string): xdr.LedgerKey {
  return xdr.LedgerKey.contractData(
    new xdr.LedgerKeyContractData({
      contract: Address.fromString(contractAddress).toScAddress(),
      key: xdr.ScVal.scvLedgerKeyContractInstance(),
      durability: xdr.ContractDataDurability.persistent(),
    }),
  );
}

export function codeKey(wasmHash: Buffer): xdr.LedgerKey {
  return xdr.LedgerKey.contractCode(new xdr.LedgerKeyContractCode({ hash: wasmHash }));
}

export async function readAccount(
  network: StellarNetwork,
  address: string,
): Promise<AccountEntry | undefined> {
  const answer = await rpcCall(network, (server) => server.getLedgerEntries(accountKey(address)));
  const entry = answer.entries[0];
  if (!entry) return undefined;
  const account = entry.val.account();
  return { balanceStroops: account.balance().toBigInt(), sequence: account.seqNum().toBigInt() };
}

export async function readInstance(
  network: StellarNetwork,
  contractAddress: string,
): Promise<InstanceEntry | undefined> {
  const answer = await rpcCall(network, (server) => server.getLedgerEntries(instanceKey(contractAddress)));
  const entry = answer.entries[0];
  if (!entry) return undefined;
  const executable = entry.val.contractData().val().instance().executable();
  return {
    ...ttlView(answer.latestLedger, entry.liveUntilLedgerSeq),
    wasmHash: executable.switch().name === 'contractExecutableWasm' ? executable.wasmHash() : null,
  };
}

export async function readCode(network: StellarNetwork, wasmHash: Buffer): Promise<CodeEntry | undefined> {
  const answer = await rpcCall(network, (server) => server.getLedgerEntries(codeKey(wasmHash)));
  const entry = answer.entries[0];
  if (!entry) return undefined;
  return { ...ttlView(answer.latestLedger, entry.liveUntilLedgerSeq), code: entry.val.contractCode().code() };
}
