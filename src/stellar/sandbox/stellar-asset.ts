import { StrKey, xdr } from '@stellar/stellar-sdk';
import { minBalance, readAccount, writeAccount } from './accounts.ts';
import { ErrCode, ErrType, HostError } from './errors.ts';
import type { Host } from './host.ts';
import { contractDataEntry } from './ledger-keys.ts';
import { VOID } from './val.ts';

/**
 * The Stellar Asset Contract for native XLM (the built-in token interface over account balances),
 * implemented in TypeScript like the real host implements it natively. Issued assets are not
 * supported. Account balances live in account entries; contract balances in the SAC's storage.
 */

// Error codes of the SAC's ContractError enum.
const SacError = {
  OperationNotSupported: 2,
  AccountMissing: 6,
  NegativeAmount: 8,
  Allowance: 9,
  Balance: 10,
} as const;

const NAME = 'native';

function fail(code: number, message: string): never {
  throw new HostError(ErrType.Contract, code, `Stellar Asset Contract: ${message}`);
}

const sym = (s: string) => xdr.ScVal.scvSymbol(s);

function i128ToScVal(v: bigint): xdr.ScVal {
  return xdr.ScVal.scvI128(
    new xdr.Int128Parts({
      hi: xdr.Int64.fromString((v >> 64n).toString()),
      lo: xdr.Uint64.fromString((v & ((1n << 64n) - 1n)).toString()),
    }),
  );
}

function scValToI128(v: xdr.ScVal): bigint {
  const p = v.i128();
  return (p.hi().toBigInt() << 64n) | p.lo().toBigInt();
}

function field(map: xdr.ScVal, name: string): xdr.ScVal | undefined {
  return (map.map() ?? []).find((e) => e.key().sym().toString() === name)?.val();
}

class NativeAsset {
  constructor(private readonly h: Host) {}

  private get self(): xdr.ScAddress {
    return this.h.frame.address;
  }

  private balanceKey(addr: xdr.ScAddress): xdr.LedgerKey {
    return xdr.LedgerKey.contractData(
      new xdr.LedgerKeyContractData({
        contract: this.self,
        key: xdr.ScVal.scvVec([sym('Balance'), xdr.ScVal.scvAddress(addr)]),
        durability: xdr.ContractDataDurability.persistent(),
      }),
    );
  }

  private allowanceKey(from: xdr.ScAddress, spender: xdr.ScAddress): xdr.LedgerKey {
    const key = xdr.ScVal.scvMap([
      new xdr.ScMapEntry({ key: sym('from'), val: xdr.ScVal.scvAddress(from) }),
      new xdr.ScMapEntry({ key: sym('spender'), val: xdr.ScVal.scvAddress(spender) }),
    ]);
    return xdr.LedgerKey.contractData(
      new xdr.LedgerKeyContractData({
        contract: this.self,
        key: xdr.ScVal.scvVec([sym('Allowance'), key]),
        durability: xdr.ContractDataDurability.temporary(),
      }),
    );
  }

  /** Spendable balance: for accounts, what is above the minimum reserve. */
  balance(addr: xdr.ScAddress): bigint {
    if (addr.switch().name === 'scAddressTypeAccount') {
      const acct = readAccount(this.h.storage, StrKey.encodeEd25519PublicKey(addr.accountId().ed25519()));
      if (!acct) return 0n;
      return acct.balance - minBalance(acct, this.h.config.baseReserve);
    }
    const e = this.h.storage.get(this.balanceKey(addr));
    const amount = e ? field(e.data().contractData().val(), 'amount') : undefined;
    return amount ? scValToI128(amount) : 0n;
  }

  private setBalance(addr: xdr.ScAddress, delta: bigint): void {
    if (addr.switch().name === 'scAddressTypeAccount') {
      const id = StrKey.encodeEd25519PublicKey(addr.accountId().ed25519());
      const acct = readAccount(this.h.storage, id);
      if (!acct) fail(SacError.AccountMissing, `account ${id} does not exist`);
      if (delta < 0n && acct.balance - minBalance(acct, this.h.config.baseReserve) < -delta) {
        fail(SacError.Balance, 'balance is not sufficient to spend');
      }
      writeAccount(this.h.storage, { ...acct, balance: acct.balance + delta });
      return;
    }
    const next = this.balance(addr) + delta;
    if (next < 0n) fail(SacError.Balance, 'balance is not sufficient to spend');
    const val = xdr.ScVal.scvMap([
      new xdr.ScMapEntry({ key: sym('amount'), val: i128ToScVal(next) }),
      new xdr.ScMapEntry({ key: sym('authorized'), val: xdr.ScVal.scvBool(true) }),
      new xdr.ScMapEntry({ key: sym('clawback'), val: xdr.ScVal.scvBool(false) }),
    ]);
    const key = this.balanceKey(addr);
    this.h.storage.put(
      key,
      contractDataEntry(
        this.self,
        key.contractData().key(),
        xdr.ContractDataDurability.persistent(),
        val,
        this.h.ledger.sequence,
      ),
    );
  }

  private event(name: string, a: xdr.ScAddress, b: xdr.ScAddress | undefined, data: xdr.ScVal): void {
    const topics = [sym(name), xdr.ScVal.scvAddress(a)];
    if (b) topics.push(xdr.ScVal.scvAddress(b));
    topics.push(xdr.ScVal.scvString(NAME));
    this.h.emitContractEvent(topics, data);
  }

  private requireAuth(addr: xdr.ScAddress): void {
    const f = this.h.frame;
    this.h.requireAuth(
      addr,
      xdr.SorobanAuthorizedFunction.sorobanAuthorizedFunctionTypeContractFn(
        new xdr.InvokeContractArgs({
          contractAddress: f.address,
          functionName: f.fnName,
          args: f.args.map((v) => this.h.objects.toScVal(v)),
        }),
      ),
    );
  }

  transfer(from: xdr.ScAddress, to: xdr.ScAddress, amount: bigint): void {
    if (amount < 0n) fail(SacError.NegativeAmount, 'negative amount');
    this.setBalance(from, -amount);
    this.setBalance(to, amount);
    this.event('transfer', from, to, i128ToScVal(amount));
  }

  allowance(from: xdr.ScAddress, spender: xdr.ScAddress): { amount: bigint; expiration: number } {
    const e = this.h.storage.get(this.allowanceKey(from, spender));
    if (!e) return { amount: 0n, expiration: 0 };
    const v = e.data().contractData().val();
    const expiration = field(v, 'expiration_ledger')?.u32() ?? 0;
    if (expiration < this.h.ledger.sequence) return { amount: 0n, expiration };
    return { amount: scValToI128(field(v, 'amount') ?? i128ToScVal(0n)), expiration };
  }

  setAllowance(from: xdr.ScAddress, spender: xdr.ScAddress, amount: bigint, expiration: number): void {
    if (amount < 0n) fail(SacError.NegativeAmount, 'negative amount');
    if (amount > 0n && expiration < this.h.ledger.sequence)
      fail(SacError.Allowance, 'expiration is in the past');
    const key = this.allowanceKey(from, spender);
    const val = xdr.ScVal.scvMap([
      new xdr.ScMapEntry({ key: sym('amount'), val: i128ToScVal(amount) }),
      new xdr.ScMapEntry({ key: sym('expiration_ledger'), val: xdr.ScVal.scvU32(expiration) }),
    ]);
    const liveUntil = Math.max(expiration, this.h.ledger.sequence);
    this.h.storage.put(
      key,
      contractDataEntry(
        this.self,
        key.contractData().key(),
        xdr.ContractDataDurability.temporary(),
        val,
        this.h.ledger.sequence,
      ),
      liveUntil,
    );
  }

  call(fn: string, args: xdr.ScVal[]): xdr.ScVal {
    const addr = (i: number) => {
      const v = args[i];
      if (v?.switch().name !== 'scvAddress')
        throw new HostError(ErrType.Value, ErrCode.UnexpectedType, `arg ${i} must be an address`);
      return v.address();
    };
    const amount = (i: number) => {
      const v = args[i];
      if (v?.switch().name !== 'scvI128')
        throw new HostError(ErrType.Value, ErrCode.UnexpectedType, `arg ${i} must be i128`);
      return scValToI128(v);
    };
    switch (fn) {
      case 'decimals':
        return xdr.ScVal.scvU32(7);
      case 'name':
      case 'symbol':
        return xdr.ScVal.scvString(NAME);
      case 'balance':
        return i128ToScVal(this.balance(addr(0)));
      case 'transfer':
        this.requireAuth(addr(0));
        this.transfer(addr(0), addr(1), amount(2));
        return xdr.ScVal.scvVoid();
      case 'approve': {
        this.requireAuth(addr(0));
        const exp = args[3]?.u32() ?? 0;
        this.setAllowance(addr(0), addr(1), amount(2), exp);
        this.event(
          'approve',
          addr(0),
          addr(1),
          xdr.ScVal.scvVec([i128ToScVal(amount(2)), xdr.ScVal.scvU32(exp)]),
        );
        return xdr.ScVal.scvVoid();
      }
      case 'allowance':
        return i128ToScVal(this.allowance(addr(0), addr(1)).amount);
      case 'transfer_from': {
        this.requireAuth(addr(0));
        const { amount: allowed, expiration } = this.allowance(addr(1), addr(0));
        if (allowed < amount(3)) fail(SacError.Allowance, 'allowance is not sufficient');
        this.setAllowance(addr(1), addr(0), allowed - amount(3), expiration);
        this.transfer(addr(1), addr(2), amount(3));
        return xdr.ScVal.scvVoid();
      }
      default:
        fail(SacError.OperationNotSupported, `function '${fn}' is not supported for the native asset`);
    }
  }
}

/** Runs a SAC function in the current (already pushed) frame. */
export function invokeStellarAsset(host: Host, fnName: string, args: bigint[]): bigint {
  host.charge(50_000);
  const result = new NativeAsset(host).call(
    fnName,
    args.map((a) => host.objects.toScVal(a)),
  );
  return result.switch().name === 'scvVoid' ? VOID : host.objects.fromScVal(result);
}

export function isNativeAssetPreimage(preimage: xdr.ContractIdPreimage): boolean {
  return (
    preimage.switch().name === 'contractIdPreimageFromAsset' &&
    preimage.fromAsset().switch().name === 'assetTypeNative'
  );
}

/** The native asset's contract address on a network (same derivation as any asset preimage). */
export function nativeAssetPreimage(): xdr.ContractIdPreimage {
  return xdr.ContractIdPreimage.contractIdPreimageFromAsset(xdr.Asset.assetTypeNative());
}

/** Instance entry of the native SAC, for networks that start with it deployed. */
export function nativeAssetInstanceEntry(address: xdr.ScAddress, ledgerSeq: number): xdr.LedgerEntry {
  const instance = new xdr.ScContractInstance({
    executable: xdr.ContractExecutable.contractExecutableStellarAsset(),
    storage: null,
  });
  return contractDataEntry(
    address,
    xdr.ScVal.scvLedgerKeyContractInstance(),
    xdr.ContractDataDurability.persistent(),
    xdr.ScVal.scvContractInstance(instance),
    ledgerSeq,
  );
}
