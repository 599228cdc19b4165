import { hash, xdr } from '@stellar/stellar-sdk';
import { ErrCode, ErrType, HostError } from './errors.ts';
import type { Host } from './host.ts';
import { contractCodeKey, contractDataEntry, contractInstanceKey } from './ledger-keys.ts';
import { isNativeAssetPreimage } from './stellar-asset.ts';
import { checkEnvMeta, exportedFunctions } from './wasm-module.ts';

/** Contract id exactly as the network derives it: sha256(HashIdPreimage::ContractId). */
export function contractIdFromPreimage(networkId: Buffer, preimage: xdr.ContractIdPreimage): Buffer {
  const full = xdr.HashIdPreimage.envelopeTypeContractId(
    new xdr.HashIdPreimageContractId({ networkId, contractIdPreimage: preimage }),
  );
  return hash(full.toXDR());
}

export function contractAddress(id: Buffer): xdr.ScAddress {
  return xdr.ScAddress.scAddressTypeContract(
    id as unknown as Parameters<typeof xdr.ScAddress.scAddressTypeContract>[0],
  );
}

/** upload_wasm: stores the code under its sha256; a no-op when the same code already exists. */
export function uploadWasm(host: Host, code: Buffer): Buffer {
  const wasmHash = hash(code);
  checkEnvMeta(wasmHash, code, host.ledger.protocolVersion); // also proves the module compiles
  const key = contractCodeKey(wasmHash);
  if (host.storage.getStored(key)) return wasmHash;
  const entry = new xdr.LedgerEntry({
    lastModifiedLedgerSeq: host.ledger.sequence,
    data: xdr.LedgerEntryData.contractCode(
      new xdr.ContractCodeEntry({ ext: new xdr.ContractCodeEntryExt(0), hash: wasmHash, code }),
    ),
    ext: new xdr.LedgerEntryExt(0),
  });
  host.storage.put(key, entry);
  host.charge(code.length * 20);
  return wasmHash;
}

export interface CreateContractRequest {
  preimage: xdr.ContractIdPreimage;
  executable: xdr.ContractExecutable;
  /** undefined = legacy CreateContract (constructor, if any, gets no args). */
  constructorArgs?: xdr.ScVal[];
}

/**
 * Creates a contract instance. An address-based preimage requires the deployer's authorization
 * for the create-contract host function, like the network's host.
 */
export function createContract(host: Host, req: CreateContractRequest): xdr.ScAddress {
  const { preimage, executable } = req;
  if (preimage.switch().name === 'contractIdPreimageFromAsset')
    return createAssetContract(host, preimage, executable);
  if (executable.switch().name !== 'contractExecutableWasm') {
    throw new HostError(
      ErrType.Context,
      ErrCode.InvalidInput,
      'a Stellar Asset executable needs an asset preimage',
    );
  }
  const deployer = preimage.fromAddress().address();
  const authFn =
    req.constructorArgs === undefined
      ? xdr.SorobanAuthorizedFunction.sorobanAuthorizedFunctionTypeCreateContractHostFn(
          new xdr.CreateContractArgs({ contractIdPreimage: preimage, executable }),
        )
      : xdr.SorobanAuthorizedFunction.sorobanAuthorizedFunctionTypeCreateContractV2HostFn(
          new xdr.CreateContractArgsV2({
            contractIdPreimage: preimage,
            executable,
            constructorArgs: req.constructorArgs,
          }),
        );
  const current = host.frames[host.frames.length - 1];
  if (!current || current.address.toXDR('base64') !== deployer.toXDR('base64'))
    host.requireAuth(deployer, authFn);

  const id = contractIdFromPreimage(host.ledger.networkId, preimage);
  const address = contractAddress(id);
  const instanceKey = contractInstanceKey(address);
  if (host.storage.getStored(instanceKey)) {
    throw new HostError(ErrType.Storage, ErrCode.ExistingValue, 'contract already exists');
  }
  const codeEntry = host.storage.get(contractCodeKey(executable.wasmHash()));
  if (!codeEntry)
    throw new HostError(ErrType.Storage, ErrCode.MissingValue, 'wasm code has not been uploaded');
  const instance = new xdr.ScContractInstance({ executable, storage: null });
  host.storage.put(
    instanceKey,
    contractDataEntry(
      address,
      xdr.ScVal.scvLedgerKeyContractInstance(),
      xdr.ContractDataDurability.persistent(),
      xdr.ScVal.scvContractInstance(instance),
      host.ledger.sequence,
    ),
  );
  const code = codeEntry.data().contractCode().code();
  const hasCtor = exportedFunctions(executable.wasmHash(), code).includes('__constructor');
  const args = req.constructorArgs ?? [];
  if (hasCtor) {
    host.callContract(
      address,
      '__constructor',
      args.map((a) => host.objects.fromScVal(a)),
      true,
    );
  } else if (args.length > 0) {
    throw new HostError(
      ErrType.Context,
      ErrCode.InvalidInput,
      'constructor args given but contract has no __constructor',
    );
  }
  return address;
}

/** Deploys the Stellar Asset Contract for an asset (native XLM only); anyone may do this. */
function createAssetContract(
  host: Host,
  preimage: xdr.ContractIdPreimage,
  executable: xdr.ContractExecutable,
): xdr.ScAddress {
  if (!isNativeAssetPreimage(preimage)) {
    throw new HostError(
      ErrType.Context,
      ErrCode.InvalidInput,
      'only the native asset has a Stellar Asset Contract here',
    );
  }
  if (executable.switch().name !== 'contractExecutableStellarAsset') {
    throw new HostError(
      ErrType.Context,
      ErrCode.InvalidInput,
      'an asset preimage needs the Stellar Asset executable',
    );
  }
  const address = contractAddress(contractIdFromPreimage(host.ledger.networkId, preimage));
  const instanceKey = contractInstanceKey(address);
  if (host.storage.getStored(instanceKey)) {
    throw new HostError(ErrType.Storage, ErrCode.ExistingValue, 'contract already exists');
  }
  host.storage.put(
    instanceKey,
    contractDataEntry(
      address,
      xdr.ScVal.scvLedgerKeyContractInstance(),
      xdr.ContractDataDurability.persistent(),
      xdr.ScVal.scvContractInstance(new xdr.ScContractInstance({ executable, storage: null })),
      host.ledger.sequence,
    ),
  );
  return address;
}
