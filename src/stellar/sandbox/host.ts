import { hash, xdr } from '@stellar/stellar-sdk';
import { type AuthContext, AuthManager } from './auth.ts';
import { ErrCode, ErrType, HostError } from './errors.ts';
import { COST, MAX_TX_INSTRUCTIONS } from './instruction-costs.ts';
import { contractCodeKey, contractDataEntry, contractInstanceKey } from './ledger-keys.ts';
import type { NetworkConfig } from './network-config.ts';
import { ObjectTable } from './object-table.ts';
import { invokeStellarAsset } from './stellar-asset.ts';
import type { TxStorage } from './tx-storage.ts';
import { errorVal, Tag, tagOf } from './val.ts';
import { type ContractInstance, instantiateContract } from './vm.ts';
import { Wasm, type WasmMemory } from './wasm-api.ts';

export interface LedgerInfo {
  sequence: number;
  timestamp: bigint;
  protocolVersion: number;
  networkId: Buffer;
}

export interface Frame {
  address: xdr.ScAddress;
  contractId: Buffer;
  fnName: string;
  args: bigint[];
  vm?: ContractInstance;
  instanceKey: xdr.LedgerKey;
  instance: xdr.ScContractInstance;
  /** Instance storage as a Map object handle; rewritten into the instance entry on success. */
  instanceStorage: bigint;
  instanceDirty: boolean;
  prngCounter: number;
  prngSeed: Buffer;
}

/** Deterministic cost counters; see fees.ts for the model. */
export interface Budget {
  instructions: number;
  memBytes: number;
}

/** One invocation's host: objects, frames, storage, auth, events and budget. */
export class Host {
  readonly objects = new ObjectTable();
  readonly frames: Frame[] = [];
  readonly events: xdr.ContractEvent[] = [];
  readonly diagnostics: xdr.DiagnosticEvent[] = [];
  readonly budget: Budget = { instructions: 0, memBytes: 0 };
  readonly auth: AuthManager;
  private prngBase: Buffer;

  constructor(
    readonly storage: TxStorage,
    readonly ledger: LedgerInfo,
    readonly config: NetworkConfig,
    readonly sourceAccount: xdr.ScAddress,
    authMode: 'record' | 'enforce',
    authEntries: xdr.SorobanAuthorizationEntry[],
    prngSeed: Buffer,
  ) {
    this.auth = new AuthManager(authMode, sourceAccount, authEntries);
    this.prngBase = prngSeed;
  }

  get frame(): Frame {
    const f = this.frames[this.frames.length - 1];
    if (!f) throw new HostError(ErrType.Context, ErrCode.InternalError, 'no contract frame is active');
    return f;
  }

  authContext(): AuthContext {
    return {
      storage: this.storage,
      networkId: this.ledger.networkId,
      ledgerSeq: this.ledger.sequence,
      maxEntryTtl: this.config.maxEntryTtl,
      activeFrames: () => this.frames,
      checkContractAuth: (address, payload, signature, contexts) => {
        const o = this.objects;
        this.callContract(
          address,
          '__check_auth',
          [
            o.add({ kind: 'bytes', value: new Uint8Array(payload) }),
            o.fromScVal(signature),
            o.fromScVal(xdr.ScVal.scvVec(contexts)),
          ],
          true,
        );
      },
    };
  }

  requireAuth(address: xdr.ScAddress, fn: xdr.SorobanAuthorizedFunction): void {
    // A contract is implicitly authorized for calls it makes directly (invoker auth).
    if (address.switch().name === 'scAddressTypeContract') {
      const caller = this.frames[this.frames.length - 2];
      if (caller && caller.address.toXDR('base64') === address.toXDR('base64')) return;
    }
    this.auth.requireAuth(this.authContext(), address, fn);
  }

  charge(instructions: number, mem = 0): void {
    this.budget.instructions += instructions;
    this.budget.memBytes += mem;
    if (this.budget.instructions > MAX_TX_INSTRUCTIONS) {
      throw new HostError(
        ErrType.Budget,
        ErrCode.ExceededLimit,
        `CPU budget of ${MAX_TX_INSTRUCTIONS} instructions exceeded`,
      );
    }
  }

  memory(): WasmMemory {
    const mem = this.frame.vm?.memory;
    if (!mem) throw new HostError(ErrType.WasmVm, ErrCode.MissingValue, 'contract exports no linear memory');
    return mem;
  }

  readMemory(pos: number, len: number): Uint8Array {
    const buf = new Uint8Array(this.memory().buffer);
    if (pos + len > buf.length) {
      throw new HostError(
        ErrType.WasmVm,
        ErrCode.IndexBounds,
        `linear memory read out of bounds at ${pos}+${len}`,
      );
    }
    this.charge(len * COST.perByteCopied);
    return buf.slice(pos, pos + len);
  }

  writeMemory(pos: number, bytes: Uint8Array): void {
    const buf = new Uint8Array(this.memory().buffer);
    if (pos + bytes.length > buf.length) {
      throw new HostError(ErrType.WasmVm, ErrCode.IndexBounds, `linear memory write out of bounds at ${pos}`);
    }
    this.charge(bytes.length * COST.perByteCopied);
    buf.set(bytes, pos);
  }

  readVals(pos: number, len: number): bigint[] {
    const bytes = this.readMemory(pos, len * 8);
    const view = new DataView(bytes.buffer);
    return Array.from({ length: len }, (_, i) => view.getBigUint64(i * 8, true));
  }

  writeVals(pos: number, vals: bigint[]): void {
    const bytes = new Uint8Array(vals.length * 8);
    const view = new DataView(bytes.buffer);
    vals.forEach((v, i) => {
      view.setBigUint64(i * 8, v, true);
    });
    this.writeMemory(pos, bytes);
  }

  emitContractEvent(topics: xdr.ScVal[], data: xdr.ScVal): void {
    const ev = new xdr.ContractEvent({
      ext: new xdr.ExtensionPoint(0),
      contractId: this.frame.contractId as never,
      type: xdr.ContractEventType.contract(),
      body: new xdr.ContractEventBody(0, new xdr.ContractEventV0({ topics, data })),
    });
    this.events.push(ev);
  }

  emitDiagnostic(topics: xdr.ScVal[], data: xdr.ScVal): void {
    const f = this.frames[this.frames.length - 1];
    const ev = new xdr.ContractEvent({
      ext: new xdr.ExtensionPoint(0),
      contractId: (f?.contractId ?? null) as never,
      type: xdr.ContractEventType.diagnostic(),
      body: new xdr.ContractEventBody(0, new xdr.ContractEventV0({ topics, data })),
    });
    this.diagnostics.push(new xdr.DiagnosticEvent({ inSuccessfulContractCall: true, event: ev }));
  }

  nextPrngBytes(len: number): Buffer {
    const f = this.frame;
    const out: Buffer[] = [];
    let total = 0;
    while (total < len) {
      const counter = Buffer.alloc(8);
      counter.writeUInt32BE(f.prngCounter++, 4);
      const block = hash(Buffer.concat([f.prngSeed, counter]));
      out.push(block);
      total += block.length;
    }
    return Buffer.concat(out).subarray(0, len);
  }

  reseedPrng(seed: Buffer): void {
    this.frame.prngSeed = hash(seed);
    this.frame.prngCounter = 0;
  }

  /**
   * Calls `fnName` on a deployed contract with Val arguments, like the host's `call`: a fresh VM
   * instance per frame, instance storage loaded on entry and written back on success.
   */
  callContract(address: xdr.ScAddress, fnName: string, args: bigint[], allowReserved = false): bigint {
    if (address.switch().name !== 'scAddressTypeContract') {
      throw new HostError(ErrType.Context, ErrCode.InvalidInput, 'cannot call an account address');
    }
    const addrXdr = address.toXDR('base64');
    if (this.frames.some((f) => f.address.toXDR('base64') === addrXdr)) {
      throw new HostError(ErrType.Context, ErrCode.InvalidAction, 'contract re-entry is not allowed');
    }
    if (fnName.startsWith('__') && !allowReserved) {
      throw new HostError(ErrType.Context, ErrCode.InvalidAction, `function ${fnName} is reserved`);
    }
    if (this.frames.length >= 100) {
      throw new HostError(ErrType.Context, ErrCode.ExceededLimit, 'call depth limit exceeded');
    }
    const instanceKey = contractInstanceKey(address);
    const instanceEntry = this.storage.get(instanceKey);
    if (!instanceEntry) {
      throw new HostError(
        ErrType.Storage,
        ErrCode.MissingValue,
        `contract instance for ${addrXdr} not found`,
      );
    }
    const instance = instanceEntry.data().contractData().val().instance();
    const exec = instance.executable();
    if (exec.switch().name !== 'contractExecutableWasm') {
      return this.runFrame(this.newFrame(address, fnName, args, instanceKey, instance), () =>
        invokeStellarAsset(this, fnName, args),
      );
    }
    const codeEntry = this.storage.get(contractCodeKey(exec.wasmHash()));
    if (!codeEntry) throw new HostError(ErrType.Storage, ErrCode.MissingValue, 'contract code not found');
    const code = codeEntry.data().contractCode().code();

    const frame = this.newFrame(address, fnName, args, instanceKey, instance);
    return this.runFrame(frame, () => {
      this.charge(COST.vmInstantiateBase + code.length * COST.vmInstantiatePerByte, code.length);
      frame.vm = instantiateContract(this, exec.wasmHash(), code);
      const fn = frame.vm.exports[fnName];
      if (typeof fn !== 'function') {
        throw new HostError(ErrType.WasmVm, ErrCode.MissingValue, `contract has no function '${fnName}'`);
      }
      const vm = frame.vm;
      const fuel = BigInt(
        Math.max(0, Math.floor((MAX_TX_INSTRUCTIONS - this.budget.instructions) / COST.perFuel)),
      );
      vm.fuel.value = fuel;
      const settle = () => this.charge(Number(fuel - (vm.fuel.value as bigint)) * COST.perFuel);
      let result: bigint;
      try {
        result = BigInt.asUintN(64, fn(...args) as bigint);
      } catch (e) {
        if (vm.fuel.value === 0n) {
          throw new HostError(
            ErrType.Budget,
            ErrCode.ExceededLimit,
            'CPU budget exceeded while running wasm',
          );
        }
        settle();
        throw asHostError(e);
      }
      settle();
      if (tagOf(result) === Tag.Error && this.frames.length > 0) {
        // A contract returning Err(..) fails the call just like a panic with that error.
        const v = result;
        throw new HostError(Number((v >> 8n) & 0xffffffn), Number(v >> 32n), 'contract returned an error');
      }
      return result;
    });
  }

  private newFrame(
    address: xdr.ScAddress,
    fnName: string,
    args: bigint[],
    instanceKey: xdr.LedgerKey,
    instance: xdr.ScContractInstance,
  ): Frame {
    const storageMap = instance.storage() ?? [];
    return {
      address,
      contractId: address.contractId() as unknown as Buffer,
      fnName,
      args,
      instanceKey,
      instance,
      instanceStorage: this.objects.newMap(
        storageMap.map((e) => [this.objects.fromScVal(e.key()), this.objects.fromScVal(e.val())] as const),
      ),
      instanceDirty: false,
      prngCounter: 0,
      prngSeed: hash(Buffer.concat([this.prngBase, Buffer.from(`${this.frames.length}:${fnName}`)])),
    };
  }

  /** Pushes the frame, runs the body, validates the result and writes back instance storage. */
  private runFrame(frame: Frame, body: () => bigint): bigint {
    this.frames.push(frame);
    try {
      const result = body();
      this.objects.toScVal(result); // validates handles before the frame's objects go out of scope
      if (frame.instanceDirty) this.writeInstance(frame);
      return result;
    } finally {
      this.frames.pop();
    }
  }

  private writeInstance(frame: Frame): void {
    const map = this.objects.toScVal(frame.instanceStorage).map() ?? [];
    const instance = new xdr.ScContractInstance({
      executable: frame.instance.executable(),
      storage: map.length > 0 ? map : null,
    });
    this.storage.put(
      frame.instanceKey,
      contractDataEntry(
        frame.address,
        xdr.ScVal.scvLedgerKeyContractInstance(),
        xdr.ContractDataDurability.persistent(),
        xdr.ScVal.scvContractInstance(instance),
        this.ledger.sequence,
      ),
    );
  }

  /** try_call: like callContract, but failures become an Error Val and their effects are undone. */
  tryCallContract(address: xdr.ScAddress, fnName: string, args: bigint[]): bigint {
    const cp = this.storage.checkpoint();
    const events = this.events.length;
    try {
      return this.callContract(address, fnName, args);
    } catch (e) {
      const he = asHostError(e);
      this.storage.rollback(cp);
      this.events.length = events;
      if (he.errType === ErrType.Budget) throw he;
      return errorVal(he.errType, he.errCode);
    }
  }
}

/** Wasm traps (unreachable, out-of-bounds…) become WasmVm errors, as on the network. */
export function asHostError(e: unknown): HostError {
  if (e instanceof HostError) return e;
  if (e instanceof Wasm.RuntimeError)
    return new HostError(ErrType.WasmVm, ErrCode.InvalidAction, `wasm trap: ${e.message}`);
  if (e instanceof RangeError)
    return new HostError(ErrType.WasmVm, ErrCode.ExceededLimit, `wasm error: ${e.message}`);
  return new HostError(ErrType.Context, ErrCode.InternalError, e instanceof Error ? e.message : String(e));
}
