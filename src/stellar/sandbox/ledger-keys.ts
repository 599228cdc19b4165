import { xdr } from '@stellar/stellar-sdk';

export function contractInstanceKey(address: xdr.ScAddress): xdr.LedgerKey {
  return xdr.LedgerKey.contractData(
    new xdr.LedgerKeyContractData({
      contract: address,
      key: xdr.ScVal.scvLedgerKeyContractInstance(),
      durability: xdr.ContractDataDurability.persistent(),
    }),
  );
}

export function contractCodeKey(wasmHash: Buffer): xdr.LedgerKey {
  return xdr.LedgerKey.contractCode(new xdr.LedgerKeyContractCode({ hash: wasmHash }));
}

export function contractDataEntry(
  contract: xdr.ScAddress,
  key: xdr.ScVal,
  durability: xdr.ContractDataDurability,
  val: xdr.ScVal,
  ledgerSeq: number,
): xdr.LedgerEntry {
  return new xdr.LedgerEntry({
    lastModifiedLedgerSeq: ledgerSeq,
    data: xdr.LedgerEntryData.contractData(
      new xdr.ContractDataEntry({ ext: new xdr.ExtensionPoint(0), contract, key, durability, val }),
    ),
    ext: new xdr.LedgerEntryExt(0),
  });
}
