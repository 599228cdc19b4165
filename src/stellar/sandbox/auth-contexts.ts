import { xdr } from '@stellar/stellar-sdk';

const sym = (s: string) => xdr.ScVal.scvSymbol(s);

function struct(fields: Array<[string, xdr.ScVal]>): xdr.ScVal {
  // contracttype structs are maps keyed by field name, sorted (the host's map order).
  const sorted = [...fields].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return xdr.ScVal.scvMap(sorted.map(([k, v]) => new xdr.ScMapEntry({ key: sym(k), val: v })));
}

function executable(e: xdr.ContractExecutable): xdr.ScVal {
  return e.switch().name === 'contractExecutableWasm'
    ? xdr.ScVal.scvVec([sym('Wasm'), xdr.ScVal.scvBytes(e.wasmHash())])
    : xdr.ScVal.scvVec([sym('StellarAsset')]);
}

function salt(p: xdr.ContractIdPreimage): xdr.ScVal {
  return xdr.ScVal.scvBytes(
    p.switch().name === 'contractIdPreimageFromAddress' ? p.fromAddress().salt() : Buffer.alloc(32),
  );
}

/** soroban-sdk's `Context` enum value for one authorized function, as passed to `__check_auth`. */
export function authContext(fn: xdr.SorobanAuthorizedFunction): xdr.ScVal {
  switch (fn.switch().name) {
    case 'sorobanAuthorizedFunctionTypeContractFn': {
      const c = fn.contractFn();
      return xdr.ScVal.scvVec([
        sym('Contract'),
        struct([
          ['args', xdr.ScVal.scvVec(c.args())],
          ['contract', xdr.ScVal.scvAddress(c.contractAddress())],
          ['fn_name', sym(c.functionName().toString())],
        ]),
      ]);
    }
    case 'sorobanAuthorizedFunctionTypeCreateContractHostFn': {
      const c = fn.createContractHostFn();
      return xdr.ScVal.scvVec([
        sym('CreateContractHostFn'),
        struct([
          ['executable', executable(c.executable())],
          ['salt', salt(c.contractIdPreimage())],
        ]),
      ]);
    }
    default: {
      const c = fn.createContractV2HostFn();
      return xdr.ScVal.scvVec([
        sym('CreateContractWithCtorHostFn'),
        struct([
          ['constructor_args', xdr.ScVal.scvVec(c.constructorArgs())],
          ['executable', executable(c.executable())],
          ['salt', salt(c.contractIdPreimage())],
        ]),
      ]);
    }
  }
}

/** All functions of an authorized invocation tree, depth first (root first). */
export function flattenInvocation(inv: xdr.SorobanAuthorizedInvocation): xdr.SorobanAuthorizedFunction[] {
  return [inv.function(), ...inv.subInvocations().flatMap(flattenInvocation)];
}

function field(map: xdr.ScVal, name: string): xdr.ScVal {
  const e = (map.map() ?? []).find(
    (x) => x.key().switch().name === 'scvSymbol' && x.key().sym().toString() === name,
  );
  if (!e) throw new Error(`missing field ${name}`);
  return e.val();
}

function executableFrom(v: xdr.ScVal): xdr.ContractExecutable {
  const parts = v.vec() ?? [];
  if (parts[0]?.sym().toString() === 'Wasm' && parts[1])
    return xdr.ContractExecutable.contractExecutableWasm(parts[1].bytes());
  return xdr.ContractExecutable.contractExecutableStellarAsset();
}

/**
 * Parses soroban-sdk's `InvokerContractAuthEntry` (passed to authorize_as_curr_contract) into the
 * authorized invocation it stands for, with `invoker` as the deployer of create-contract entries.
 */
export function invocationFromInvokerEntry(
  entry: xdr.ScVal,
  invoker: xdr.ScAddress,
): xdr.SorobanAuthorizedInvocation {
  const parts = entry.vec() ?? [];
  const kind = parts[0]?.sym().toString();
  const body = parts[1];
  if (!body) throw new Error('malformed InvokerContractAuthEntry');
  if (kind === 'Contract') {
    const ctx = field(body, 'context');
    return new xdr.SorobanAuthorizedInvocation({
      function: xdr.SorobanAuthorizedFunction.sorobanAuthorizedFunctionTypeContractFn(
        new xdr.InvokeContractArgs({
          contractAddress: field(ctx, 'contract').address(),
          functionName: field(ctx, 'fn_name').sym(),
          args: field(ctx, 'args').vec() ?? [],
        }),
      ),
      subInvocations: (field(body, 'sub_invocations').vec() ?? []).map((s) =>
        invocationFromInvokerEntry(s, invoker),
      ),
    });
  }
  const preimage = xdr.ContractIdPreimage.contractIdPreimageFromAddress(
    new xdr.ContractIdPreimageFromAddress({ address: invoker, salt: field(body, 'salt').bytes() }),
  );
  const exec = executableFrom(field(body, 'executable'));
  const fn =
    kind === 'CreateContractHostFn'
      ? xdr.SorobanAuthorizedFunction.sorobanAuthorizedFunctionTypeCreateContractHostFn(
          new xdr.CreateContractArgs({ contractIdPreimage: preimage, executable: exec }),
        )
      : xdr.SorobanAuthorizedFunction.sorobanAuthorizedFunctionTypeCreateContractV2HostFn(
          new xdr.CreateContractArgsV2({
            contractIdPreimage: preimage,
            executable: exec,
            constructorArgs: field(body, 'constructor_args').vec() ?? [],
          }),
        );
  return new xdr.SorobanAuthorizedInvocation({ function: fn, subInvocations: [] });
}
