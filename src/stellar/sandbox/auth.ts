import { randomBytes } from 'node:crypto';
import { hash, Keypair, StrKey, xdr } from '@stellar/stellar-sdk';
import { authContext, flattenInvocation } from './auth-contexts.ts';
import { ErrCode, ErrType, HostError } from './errors.ts';
import type { TxStorage } from './tx-storage.ts';

interface AuthNode {
  fn: xdr.SorobanAuthorizedFunction;
  fnXdr: string;
  children: AuthNode[];
  parent: AuthNode | undefined;
  consumed: boolean;
  /** Recording mode: the call frame the require_auth happened in (children must come from deeper frames). */
  frame?: object;
  /** Enforcing mode: the call frame that consumed this node. */
  consumedIn?: object;
}

interface AuthTree {
  address: xdr.ScAddress;
  addressXdr: string;
  sourceAccount: boolean;
  nonce: bigint;
  root: AuthNode;
  entry?: xdr.SorobanAuthorizationEntry;
  verified: boolean;
  /** authorize_as_curr_contract trees: usable only while this contract frame is on the stack. */
  invokerFrame?: object;
}

export interface AuthContext {
  storage: TxStorage;
  networkId: Buffer;
  ledgerSeq: number;
  maxEntryTtl: number;
  /** Call frames currently on the stack (outermost first). */
  activeFrames(): readonly object[];
  /** Runs a custom account contract's `__check_auth(payload, signature, contexts)`. */
  checkContractAuth(
    address: xdr.ScAddress,
    payload: Buffer,
    signature: xdr.ScVal,
    contexts: xdr.ScVal[],
  ): void;
}

export function nonceLedgerKey(address: xdr.ScAddress, nonce: bigint): xdr.LedgerKey {
  return xdr.LedgerKey.contractData(
    new xdr.LedgerKeyContractData({
      contract: address,
      key: xdr.ScVal.scvLedgerKeyNonce(new xdr.ScNonceKey({ nonce: xdr.Int64.fromString(nonce.toString()) })),
      durability: xdr.ContractDataDurability.temporary(),
    }),
  );
}

function accountKey(address: xdr.ScAddress): xdr.LedgerKey {
  return xdr.LedgerKey.account(new xdr.LedgerKeyAccount({ accountId: address.accountId() }));
}

/**
 * Soroban authorization: `record` builds SorobanAuthorizationEntry trees from the require_auth
 * calls simulation observes; `enforce` matches require_auth calls against signed entries.
 */
export class AuthManager {
  private readonly trees: AuthTree[] = [];
  private readonly invokerTrees: AuthTree[] = [];

  constructor(
    readonly mode: 'record' | 'enforce',
    private readonly sourceAccount: xdr.ScAddress,
    entries: xdr.SorobanAuthorizationEntry[],
  ) {
    if (mode === 'enforce') {
      for (const entry of entries) this.trees.push(this.treeFromEntry(entry));
    }
  }

  private treeFromEntry(entry: xdr.SorobanAuthorizationEntry): AuthTree {
    const toNode = (inv: xdr.SorobanAuthorizedInvocation, parent: AuthNode | undefined): AuthNode => {
      const node: AuthNode = {
        fn: inv.function(),
        fnXdr: inv.function().toXDR('base64'),
        children: [],
        parent,
        consumed: false,
      };
      node.children = inv.subInvocations().map((c) => toNode(c, node));
      return node;
    };
    const creds = entry.credentials();
    if (creds.switch().name === 'sorobanCredentialsSourceAccount') {
      return {
        address: this.sourceAccount,
        addressXdr: this.sourceAccount.toXDR('base64'),
        sourceAccount: true,
        nonce: 0n,
        root: toNode(entry.rootInvocation(), undefined),
        entry,
        verified: true,
      };
    }
    const a = creds.address();
    return {
      address: a.address(),
      addressXdr: a.address().toXDR('base64'),
      sourceAccount: false,
      nonce: a.nonce().toBigInt(),
      root: toNode(entry.rootInvocation(), undefined),
      entry,
      verified: false,
    };
  }

  requireAuth(ctx: AuthContext, address: xdr.ScAddress, fn: xdr.SorobanAuthorizedFunction): void {
    if (this.consumeInvokerAuth(ctx, address, fn)) return;
    if (this.mode === 'record') this.record(ctx, address, fn);
    else this.enforce(ctx, address, fn);
  }

  /** authorize_as_curr_contract: the running contract pre-authorizes deeper calls on its behalf. */
  addInvokerAuth(
    address: xdr.ScAddress,
    invocations: xdr.SorobanAuthorizedInvocation[],
    frame: object,
  ): void {
    const toNode = (inv: xdr.SorobanAuthorizedInvocation, parent: AuthNode | undefined): AuthNode => {
      const node: AuthNode = {
        fn: inv.function(),
        fnXdr: inv.function().toXDR('base64'),
        children: [],
        parent,
        consumed: false,
      };
      node.children = inv.subInvocations().map((c) => toNode(c, node));
      return node;
    };
    for (const inv of invocations) {
      this.invokerTrees.push({
        address,
        addressXdr: address.toXDR('base64'),
        sourceAccount: false,
        nonce: 0n,
        root: toNode(inv, undefined),
        verified: true,
        invokerFrame: frame,
      });
    }
  }

  private consumeInvokerAuth(
    ctx: AuthContext,
    address: xdr.ScAddress,
    fn: xdr.SorobanAuthorizedFunction,
  ): boolean {
    const addressXdr = address.toXDR('base64');
    const frames = ctx.activeFrames();
    for (const tree of this.invokerTrees) {
      if (tree.addressXdr !== addressXdr || !frames.includes(tree.invokerFrame ?? {})) continue;
      const node = findMatch(tree.root, fn.toXDR('base64'), frames);
      if (!node) continue;
      node.consumed = true;
      node.consumedIn = frames[frames.length - 1];
      return true;
    }
    return false;
  }

  private record(ctx: AuthContext, address: xdr.ScAddress, fn: xdr.SorobanAuthorizedFunction): void {
    const addressXdr = address.toXDR('base64');
    const frames = ctx.activeFrames();
    const current = frames[frames.length - 1];
    // Attach under the deepest node for this address recorded in a frame that is still an ancestor.
    let parent: AuthNode | undefined;
    for (const tree of this.trees) {
      if (tree.addressXdr !== addressXdr) continue;
      const stack = [tree.root];
      while (stack.length) {
        const n = stack.pop() as AuthNode;
        if (n.frame && n.frame !== current && frames.includes(n.frame)) parent = n;
        stack.push(...n.children);
      }
    }
    const node: AuthNode = {
      fn,
      fnXdr: fn.toXDR('base64'),
      children: [],
      parent,
      consumed: true,
      frame: current,
    };
    if (parent) {
      parent.children.push(node);
      return;
    }
    const isSource = addressXdr === this.sourceAccount.toXDR('base64');
    const nonce = isSource ? 0n : randomBytes(8).readBigInt64BE() & 0x7fffffffffffffffn;
    if (!isSource) {
      // The nonce is consumed on apply, so the footprint must let us write it.
      ctx.storage.getStored(nonceLedgerKey(address, nonce));
      ctx.storage.del(nonceLedgerKey(address, nonce));
      if (address.switch().name === 'scAddressTypeAccount') ctx.storage.get(accountKey(address));
    }
    this.trees.push({ address, addressXdr, sourceAccount: isSource, nonce, root: node, verified: true });
  }

  private enforce(ctx: AuthContext, address: xdr.ScAddress, fn: xdr.SorobanAuthorizedFunction): void {
    const addressXdr = address.toXDR('base64');
    const fnXdr = fn.toXDR('base64');
    const frames = ctx.activeFrames();
    for (const tree of this.trees) {
      if (tree.addressXdr !== addressXdr) continue;
      const node = findMatch(tree.root, fnXdr, frames);
      if (!node) continue;
      if (!tree.verified) this.verify(ctx, tree);
      node.consumed = true;
      node.consumedIn = frames[frames.length - 1];
      return;
    }
    throw new HostError(
      ErrType.Auth,
      ErrCode.InvalidAction,
      `Unauthorized function call for address ${scAddressToString(address)}`,
    );
  }

  private verify(ctx: AuthContext, tree: AuthTree): void {
    const creds = tree.entry?.credentials().address();
    if (!creds || !tree.entry)
      throw new HostError(ErrType.Auth, ErrCode.InternalError, 'missing credentials');
    const exp = creds.signatureExpirationLedger();
    if (exp < ctx.ledgerSeq || exp > ctx.ledgerSeq + ctx.maxEntryTtl - 1) {
      throw new HostError(
        ErrType.Auth,
        ErrCode.InvalidInput,
        `signature expiration ledger ${exp} is out of range`,
      );
    }
    const preimage = xdr.HashIdPreimage.envelopeTypeSorobanAuthorization(
      new xdr.HashIdPreimageSorobanAuthorization({
        networkId: ctx.networkId,
        nonce: creds.nonce(),
        signatureExpirationLedger: exp,
        invocation: tree.entry.rootInvocation(),
      }),
    );
    const payload = hash(preimage.toXDR());
    if (tree.address.switch().name === 'scAddressTypeContract') {
      const contexts = flattenInvocation(tree.entry.rootInvocation()).map(authContext);
      ctx.checkContractAuth(tree.address, payload, creds.signature(), contexts);
    } else {
      verifyAccountSignature(ctx, tree.address, payload, creds.signature());
    }
    const nonceKey = nonceLedgerKey(tree.address, tree.nonce);
    if (ctx.storage.getStored(nonceKey)) {
      throw new HostError(ErrType.Auth, ErrCode.ExistingValue, 'nonce already used (replayed authorization)');
    }
    const entry = new xdr.LedgerEntry({
      lastModifiedLedgerSeq: ctx.ledgerSeq,
      data: xdr.LedgerEntryData.contractData(
        new xdr.ContractDataEntry({
          ext: new xdr.ExtensionPoint(0),
          contract: tree.address,
          key: nonceKey.contractData().key(),
          durability: xdr.ContractDataDurability.temporary(),
          val: xdr.ScVal.scvVoid(),
        }),
      ),
      ext: new xdr.LedgerEntryExt(0),
    });
    ctx.storage.put(nonceKey, entry, exp);
    tree.verified = true;
  }

  /** Recorded entries, in the shape simulateTransaction returns them. */
  recordedEntries(): xdr.SorobanAuthorizationEntry[] {
    const toInv = (n: AuthNode): xdr.SorobanAuthorizedInvocation =>
      new xdr.SorobanAuthorizedInvocation({ function: n.fn, subInvocations: n.children.map(toInv) });
    return this.trees.map(
      (t) =>
        new xdr.SorobanAuthorizationEntry({
          credentials: t.sourceAccount
            ? xdr.SorobanCredentials.sorobanCredentialsSourceAccount()
            : xdr.SorobanCredentials.sorobanCredentialsAddress(
                new xdr.SorobanAddressCredentials({
                  address: t.address,
                  nonce: xdr.Int64.fromString(t.nonce.toString()),
                  signatureExpirationLedger: 0,
                  signature: xdr.ScVal.scvVoid(),
                }),
              ),
          rootInvocation: toInv(t.root),
        }),
    );
  }
}

/** Classic account credentials: a vec of {public_key, signature} maps signed by the master key. */
function verifyAccountSignature(
  ctx: AuthContext,
  address: xdr.ScAddress,
  payload: Buffer,
  signature: xdr.ScVal,
): void {
  const accountId = StrKey.encodeEd25519PublicKey(address.accountId().ed25519());
  const account = ctx.storage.get(accountKey(address));
  if (!account)
    throw new HostError(ErrType.Auth, ErrCode.MissingValue, `account ${accountId} does not exist`);
  const sigs = signature.switch().name === 'scvVec' ? (signature.vec() ?? []) : [];
  const ok = sigs.some((s) => {
    const m = new Map((s.map() ?? []).map((e) => [e.key().sym().toString(), e.val()]));
    const pk = m.get('public_key')?.bytes();
    const sig = m.get('signature')?.bytes();
    if (!pk || !sig || StrKey.encodeEd25519PublicKey(pk) !== accountId) return false;
    return Keypair.fromPublicKey(accountId).verify(payload, sig);
  });
  if (!ok)
    throw new HostError(ErrType.Auth, ErrCode.InvalidAction, `signature check failed for ${accountId}`);
}

/** A node matches when unused and its parent was consumed by a frame still on the stack. */
function findMatch(root: AuthNode, fnXdr: string, frames: readonly object[]): AuthNode | undefined {
  const stack = [root];
  while (stack.length) {
    const n = stack.pop() as AuthNode;
    const parentOk =
      n.parent === undefined || (n.parent.consumed && frames.includes(n.parent.consumedIn ?? {}));
    if (!n.consumed && parentOk && n.fnXdr === fnXdr) return n;
    if (n.consumed) stack.push(...n.children);
  }
  return undefined;
}

export function scAddressToString(a: xdr.ScAddress): string {
  if (a.switch().name === 'scAddressTypeAccount')
    return StrKey.encodeEd25519PublicKey(a.accountId().ed25519());
  if (a.switch().name === 'scAddressTypeContract')
    return StrKey.encodeContract(a.contractId() as unknown as Buffer);
  return a.switch().name;
}
