import { buildContract, type SpecFn, smallSymbol } from './wasm-builder.ts';

// Test contracts in WebAssembly text. Vals are handled by hand: tag in the low byte, U32Val (4)
// and I32Val (5) carry their value in the upper 32 bits; Void is 2; Error is 3 with the code in
// the upper 32 bits. Storage type args to the host are raw 0/1/2 (temporary/persistent/instance).

const sym = (s: string) => smallSymbol(s).toString();

const KITCHEN_SINK_WAT = `
(module
  (import "x" "1" (func $event (param i64 i64) (result i64)))
  (import "x" "5" (func $fail (param i64) (result i64)))
  (import "x" "3" (func $ledger_seq (result i64)))
  (import "l" "_" (func $put (param i64 i64 i64) (result i64)))
  (import "l" "0" (func $has (param i64 i64) (result i64)))
  (import "l" "1" (func $get (param i64 i64) (result i64)))
  (import "l" "2" (func $del (param i64 i64) (result i64)))
  (import "l" "7" (func $extend (param i64 i64 i64 i64) (result i64)))
  (import "l" "8" (func $extend_inst (param i64 i64) (result i64)))
  (import "v" "_" (func $vec_new (result i64)))
  (import "v" "6" (func $vec_push (param i64 i64) (result i64)))
  (import "a" "0" (func $require_auth (param i64) (result i64)))
  (import "d" "_" (func $call (param i64 i64 i64) (result i64)))
  (import "c" "_" (func $sha256 (param i64) (result i64)))
  (import "c" "4" (func $bls_check (param i64) (result i64)))
  (memory (export "memory") 1)

  (func $expect (param $v i64) (param $tag i64)
    (if (i64.ne (i64.and (local.get $v) (i64.const 255)) (local.get $tag)) (then unreachable)))
  ;; U32Val -> raw value (as i64), trapping on any other type, like soroban-sdk's conversions.
  (func $u32 (param $v i64) (result i64)
    (call $expect (local.get $v) (i64.const 4))
    (i64.shr_u (local.get $v) (i64.const 32)))

  (func (export "put") (param $k i64) (param $v i64) (param $t i64) (result i64)
    (call $expect (local.get $v) (i64.const 4))
    (drop (call $put (local.get $k) (local.get $v) (call $u32 (local.get $t))))
    (i64.const 2))
  (func (export "get") (param $k i64) (param $t i64) (result i64)
    (if (result i64) (i64.eq (call $has (local.get $k) (call $u32 (local.get $t))) (i64.const 1))
      (then (call $get (local.get $k) (call $u32 (local.get $t))))
      (else (i64.const 2))))
  (func (export "has") (param $k i64) (param $t i64) (result i64)
    (call $has (local.get $k) (call $u32 (local.get $t))))
  (func (export "del") (param $k i64) (param $t i64) (result i64)
    (drop (call $del (local.get $k) (call $u32 (local.get $t))))
    (i64.const 2))
  (func (export "extend") (param $k i64) (param $t i64) (param $th i64) (param $to i64) (result i64)
    (if (i64.eq (call $u32 (local.get $t)) (i64.const 2))
      (then (drop (call $extend_inst (local.get $th) (local.get $to))))
      (else (drop (call $extend (local.get $k) (call $u32 (local.get $t)) (local.get $th) (local.get $to)))))
    (i64.const 2))
  (func (export "add") (param $a i64) (param $b i64) (result i64)
    (local $sum i64)
    (call $expect (local.get $a) (i64.const 5))
    (call $expect (local.get $b) (i64.const 5))
    (local.set $sum (i64.add (i64.shr_s (local.get $a) (i64.const 32)) (i64.shr_s (local.get $b) (i64.const 32))))
    (if (i64.ne (local.get $sum) (i64.extend_i32_s (i32.wrap_i64 (local.get $sum)))) (then unreachable))
    (i64.or (i64.shl (local.get $sum) (i64.const 32)) (i64.const 5)))
  (func (export "boom") (result i64) unreachable)
  (func (export "spin") (result i64) (loop $forever (br $forever)) unreachable)
  (func (export "fail") (param $code i64) (result i64)
    (drop (call $fail (i64.or (i64.shl (call $u32 (local.get $code)) (i64.const 32)) (i64.const 3))))
    (i64.const 2))
  (func (export "guarded") (param $user i64) (param $v i64) (result i64)
    (call $expect (local.get $user) (i64.const 77))
    (drop (call $require_auth (local.get $user)))
    (drop (call $put (i64.const ${sym('last')}) (local.get $v) (i64.const 1)))
    (local.get $v))
  (func (export "emit") (param $v i64) (result i64)
    (drop (call $event
      (call $vec_push (call $vec_push (call $vec_new) (i64.const ${sym('ping')})) (local.get $v))
      (local.get $v)))
    (i64.const 2))
  (func (export "call_add") (param $other i64) (param $a i64) (param $b i64) (result i64)
    (call $call (local.get $other) (i64.const ${sym('add')})
      (call $vec_push (call $vec_push (call $vec_new) (local.get $a)) (local.get $b))))
  (func (export "relay") (param $target i64) (param $user i64) (param $v i64) (result i64)
    (call $call (local.get $target) (i64.const ${sym('guarded')})
      (call $vec_push (call $vec_push (call $vec_new) (local.get $user)) (local.get $v))))
  (func (export "seq") (result i64) (call $ledger_seq))
  (func (export "hash") (param $b i64) (result i64) (call $sha256 (local.get $b)))
  (func (export "bls") (param $b i64) (result i64) (call $bls_check (local.get $b)))
)`;

const KITCHEN_SINK_SPEC: SpecFn[] = [
  {
    name: 'put',
    inputs: [
      ['key', 'symbol'],
      ['val', 'u32'],
      ['kind', 'u32'],
    ],
  },
  {
    name: 'get',
    inputs: [
      ['key', 'symbol'],
      ['kind', 'u32'],
    ],
    output: 'option<u32>',
  },
  {
    name: 'has',
    inputs: [
      ['key', 'symbol'],
      ['kind', 'u32'],
    ],
    output: 'bool',
  },
  {
    name: 'del',
    inputs: [
      ['key', 'symbol'],
      ['kind', 'u32'],
    ],
  },
  {
    name: 'extend',
    inputs: [
      ['key', 'symbol'],
      ['kind', 'u32'],
      ['threshold', 'u32'],
      ['extend_to', 'u32'],
    ],
  },
  {
    name: 'add',
    inputs: [
      ['a', 'i32'],
      ['b', 'i32'],
    ],
    output: 'i32',
  },
  { name: 'boom', inputs: [] },
  { name: 'spin', inputs: [] },
  { name: 'fail', inputs: [['code', 'u32']] },
  {
    name: 'guarded',
    inputs: [
      ['user', 'address'],
      ['val', 'u32'],
    ],
    output: 'u32',
  },
  { name: 'emit', inputs: [['val', 'u32']] },
  {
    name: 'call_add',
    inputs: [
      ['other', 'address'],
      ['a', 'i32'],
      ['b', 'i32'],
    ],
    output: 'i32',
  },
  {
    name: 'relay',
    inputs: [
      ['target', 'address'],
      ['user', 'address'],
      ['val', 'u32'],
    ],
    output: 'u32',
  },
  { name: 'seq', inputs: [], output: 'u32' },
  { name: 'hash', inputs: [['data', 'bytes']], output: 'bytes' },
  { name: 'bls', inputs: [['point', 'bytes']], output: 'bool' },
];

const CONSTRUCTOR_WAT = `
(module
  (import "l" "_" (func $put (param i64 i64 i64) (result i64)))
  (import "l" "1" (func $get (param i64 i64) (result i64)))
  (memory (export "memory") 1)
  (func (export "__constructor") (param $v i64) (result i64)
    (if (i64.ne (i64.and (local.get $v) (i64.const 255)) (i64.const 4)) (then unreachable))
    (drop (call $put (i64.const ${sym('init')}) (local.get $v) (i64.const 2)))
    (i64.const 2))
  (func (export "init") (result i64) (call $get (i64.const ${sym('init')}) (i64.const 2)))
)`;

const CONSTRUCTOR_SPEC: SpecFn[] = [
  { name: '__constructor', inputs: [['init', 'u32']] },
  { name: 'init', inputs: [], output: 'u32' },
];

// A custom account: accepts an authorization when the signature is U32Val(7), and records how
// many auth contexts it was shown in instance storage under "ctxs".
const WALLET_WAT = `
(module
  (import "x" "5" (func $fail (param i64) (result i64)))
  (import "v" "3" (func $vec_len (param i64) (result i64)))
  (import "l" "_" (func $put (param i64 i64 i64) (result i64)))
  (memory (export "memory") 1)
  (func (export "__check_auth") (param $payload i64) (param $sig i64) (param $ctxs i64) (result i64)
    (if (i64.ne (local.get $sig) (i64.const ${((7n << 32n) | 4n).toString()}))
      (then (drop (call $fail (i64.const ${((1n << 32n) | 3n).toString()})))))
    (drop (call $put (i64.const ${sym('ctxs')}) (call $vec_len (local.get $ctxs)) (i64.const 2)))
    (i64.const 2))
)`;

const WALLET_SPEC: SpecFn[] = [];

export function walletWasm(): Promise<Buffer> {
  return buildContract(WALLET_WAT, WALLET_SPEC);
}

// Calls relay.relay(target, self, 5) after pre-authorizing target.guarded(self, 5) with
// authorize_as_curr_contract, since the relay (not this contract) is target's direct caller.
const PROXY_WAT = `
(module
  (import "m" "_" (func $map_new (result i64)))
  (import "m" "0" (func $map_put (param i64 i64 i64) (result i64)))
  (import "v" "_" (func $vec_new (result i64)))
  (import "v" "6" (func $vec_push (param i64 i64) (result i64)))
  (import "b" "j" (func $symbol_new (param i64 i64) (result i64)))
  (import "a" "3" (func $authorize (param i64) (result i64)))
  (import "x" "7" (func $self (result i64)))
  (import "d" "_" (func $call (param i64 i64 i64) (result i64)))
  (memory (export "memory") 1)
  (data (i32.const 0) "sub_invocations")
  (func (export "proxy") (param $relay i64) (param $target i64) (result i64)
    (local $me i64) (local $five i64) (local $ctx i64) (local $body i64)
    (local.set $me (call $self))
    (local.set $five (i64.const ${((5n << 32n) | 4n).toString()}))
    (local.set $ctx
      (call $map_put
        (call $map_put
          (call $map_put (call $map_new) (i64.const ${sym('args')})
            (call $vec_push (call $vec_push (call $vec_new) (local.get $me)) (local.get $five)))
          (i64.const ${sym('contract')}) (local.get $target))
        (i64.const ${sym('fn_name')}) (i64.const ${sym('guarded')})))
    (local.set $body
      (call $map_put
        (call $map_put (call $map_new) (i64.const ${sym('context')}) (local.get $ctx))
        (call $symbol_new (i64.const 4) (i64.const ${((15n << 32n) | 4n).toString()}))
        (call $vec_new)))
    (drop (call $authorize
      (call $vec_push (call $vec_new)
        (call $vec_push (call $vec_push (call $vec_new) (i64.const ${sym('Contract')})) (local.get $body)))))
    (call $call (local.get $relay) (i64.const ${sym('relay')})
      (call $vec_push (call $vec_push (call $vec_push (call $vec_new) (local.get $target)) (local.get $me)) (local.get $five))))
)`;

export function proxyWasm(): Promise<Buffer> {
  return buildContract(PROXY_WAT, [
    {
      name: 'proxy',
      inputs: [
        ['relay', 'address'],
        ['target', 'address'],
      ],
      output: 'u32',
    },
  ]);
}

/** Storage type numbers the kitchen-sink contract takes as its `kind` argument. */
export const Kind = { temporary: 0, persistent: 1, instance: 2 } as const;

export function kitchenSinkWasm(opts?: { protocol?: number; envMeta?: boolean }): Promise<Buffer> {
  return buildContract(KITCHEN_SINK_WAT, KITCHEN_SINK_SPEC, opts);
}

export function constructorWasm(): Promise<Buffer> {
  return buildContract(CONSTRUCTOR_WAT, CONSTRUCTOR_SPEC);
}
