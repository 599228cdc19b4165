import { buildContract, type SpecFn, smallSymbol } from './wasm-builder.ts';

// A contract whose functions are thin wrappers over individual host functions (and one i128
// addition done on 64-bit pieces like soroban-sdk does), so tests can check each host function
// through the real client. Memory layout: 0..63 scratch, 64.. static strings.

const sym = (s: string) => smallSymbol(s).toString();
const MSG = 'hello chaingate';
const LONG_SYMBOL = 'a_rather_long_symbol';

const WAT = `
(module
  (import "x" "_" (func $log (param i64 i64 i64 i64) (result i64)))
  (import "x" "0" (func $obj_cmp (param i64 i64) (result i64)))
  (import "x" "4" (func $timestamp (result i64)))
  (import "x" "7" (func $self (result i64)))
  (import "i" "_" (func $u64_obj (param i64) (result i64)))
  (import "i" "0" (func $u64_raw (param i64) (result i64)))
  (import "i" "6" (func $i128_from (param i64 i64) (result i64)))
  (import "i" "7" (func $i128_lo (param i64) (result i64)))
  (import "i" "8" (func $i128_hi (param i64) (result i64)))
  (import "i" "n" (func $u256_add (param i64 i64) (result i64)))
  (import "m" "_" (func $map_new (result i64)))
  (import "m" "0" (func $map_put (param i64 i64 i64) (result i64)))
  (import "m" "1" (func $map_get (param i64 i64) (result i64)))
  (import "m" "7" (func $map_keys (param i64) (result i64)))
  (import "m" "9" (func $map_from_mem (param i64 i64 i64) (result i64)))
  (import "v" "3" (func $vec_len (param i64) (result i64)))
  (import "v" "4" (func $vec_push_front (param i64 i64) (result i64)))
  (import "v" "c" (func $vec_slice (param i64 i64 i64) (result i64)))
  (import "v" "d" (func $vec_first_index (param i64 i64) (result i64)))
  (import "v" "_" (func $vec_new (result i64)))
  (import "v" "6" (func $vec_push (param i64 i64) (result i64)))
  (import "b" "1" (func $bytes_to_mem (param i64 i64 i64 i64) (result i64)))
  (import "b" "3" (func $bytes_from_mem (param i64 i64) (result i64)))
  (import "b" "8" (func $bytes_len (param i64) (result i64)))
  (import "b" "e" (func $bytes_append (param i64 i64) (result i64)))
  (import "b" "i" (func $string_from_mem (param i64 i64) (result i64)))
  (import "b" "j" (func $symbol_from_mem (param i64 i64) (result i64)))
  (import "c" "0" (func $ed25519_verify (param i64 i64 i64) (result i64)))
  (import "c" "1" (func $keccak (param i64) (result i64)))
  (import "p" "1" (func $rand_range (param i64 i64) (result i64)))
  (import "a" "_" (func $require_auth_for_args (param i64 i64) (result i64)))
  (import "a" "2" (func $to_strkey (param i64) (result i64)))
  (import "a" "4" (func $muxed_address (param i64) (result i64)))
  (import "a" "5" (func $muxed_id (param i64) (result i64)))
  (import "a" "6" (func $executable (param i64) (result i64)))
  (import "d" "0" (func $try_call (param i64 i64 i64) (result i64)))
  (memory (export "memory") 1)
  (data (i32.const 64) "${MSG}")
  (data (i32.const 128) "${LONG_SYMBOL}")
  ;; "ab" at 192; key slices (ptr, len) sorted at 256 and reversed at 272; values U32Val 1, 2 at 288
  (data (i32.const 192) "ab")
  (data (i32.const 256) "\\c0\\00\\00\\00\\01\\00\\00\\00\\c1\\00\\00\\00\\01\\00\\00\\00")
  (data (i32.const 272) "\\c1\\00\\00\\00\\01\\00\\00\\00\\c0\\00\\00\\00\\01\\00\\00\\00")
  (data (i32.const 288) "\\04\\00\\00\\00\\01\\00\\00\\00\\04\\00\\00\\00\\02\\00\\00\\00")

  (func $tag (param $v i64) (result i64) (i64.and (local.get $v) (i64.const 255)))
  (func $u32v (param $n i64) (result i64) (i64.or (i64.shl (local.get $n) (i64.const 32)) (i64.const 4)))
  ;; U64Val -> raw u64 (small body or object)
  (func $u64_of (param $v i64) (result i64)
    (if (result i64) (i64.eq (call $tag (local.get $v)) (i64.const 6))
      (then (i64.shr_u (local.get $v) (i64.const 8)))
      (else (call $u64_raw (local.get $v)))))
  (func $u64_val (param $n i64) (result i64)
    (if (result i64) (i64.lt_u (local.get $n) (i64.const 72057594037927936))
      (then (i64.or (i64.shl (local.get $n) (i64.const 8)) (i64.const 6)))
      (else (call $u64_obj (local.get $n)))))
  ;; i128 pieces from either I128Small (tag 11) or an I128Object
  (func $lo (param $v i64) (result i64)
    (if (result i64) (i64.eq (call $tag (local.get $v)) (i64.const 11))
      (then (i64.shr_s (local.get $v) (i64.const 8)))
      (else (call $i128_lo (local.get $v)))))
  (func $hi (param $v i64) (result i64)
    (if (result i64) (i64.eq (call $tag (local.get $v)) (i64.const 11))
      (then (i64.shr_s (local.get $v) (i64.const 63)))
      (else (call $i128_hi (local.get $v)))))

  (func (export "i128_add") (param $a i64) (param $b i64) (result i64)
    (local $lo i64)
    (local.set $lo (i64.add (call $lo (local.get $a)) (call $lo (local.get $b))))
    (call $i128_from
      (i64.add (i64.add (call $hi (local.get $a)) (call $hi (local.get $b)))
               (i64.extend_i32_u (i64.lt_u (local.get $lo) (call $lo (local.get $a)))))
      (local.get $lo)))
  (func (export "u256_add") (param $a i64) (param $b i64) (result i64) (call $u256_add (local.get $a) (local.get $b)))
  (func (export "u64_double") (param $a i64) (result i64)
    (call $u64_val (i64.mul (call $u64_of (local.get $a)) (i64.const 2))))
  (func (export "map_two") (param $k1 i64) (param $v1 i64) (param $k2 i64) (param $v2 i64) (result i64)
    (call $map_put (call $map_put (call $map_new) (local.get $k1) (local.get $v1)) (local.get $k2) (local.get $v2)))
  (func (export "map_mem") (param $reversed i64) (result i64)
    (call $map_from_mem
      (if (result i64) (i64.eq (local.get $reversed) (i64.const 1)) (then (call $u32v (i64.const 272))) (else (call $u32v (i64.const 256))))
      (call $u32v (i64.const 288))
      (call $u32v (i64.const 2))))
  (func (export "map_keys") (param $m i64) (result i64) (call $map_keys (local.get $m)))
  (func (export "map_get") (param $m i64) (param $k i64) (result i64) (call $map_get (local.get $m) (local.get $k)))
  (func (export "vec_front") (param $v i64) (param $x i64) (result i64) (call $vec_push_front (local.get $v) (local.get $x)))
  (func (export "vec_len") (param $v i64) (result i64) (call $vec_len (local.get $v)))
  (func (export "vec_slice") (param $v i64) (param $s i64) (param $e i64) (result i64)
    (call $vec_slice (local.get $v) (local.get $s) (local.get $e)))
  (func (export "vec_find") (param $v i64) (param $x i64) (result i64) (call $vec_first_index (local.get $v) (local.get $x)))
  ;; copies the bytes through linear memory and back, then appends the original
  (func (export "bytes_mem") (param $b i64) (result i64)
    (drop (call $bytes_to_mem (local.get $b) (i64.const 4) (i64.const 4) (call $bytes_len (local.get $b))))
    (call $bytes_append (call $bytes_from_mem (i64.const 4) (call $bytes_len (local.get $b))) (local.get $b)))
  (func (export "greeting") (result i64) (call $string_from_mem (call $u32v (i64.const 64)) (call $u32v (i64.const ${MSG.length}))))
  (func (export "long_sym") (result i64) (call $symbol_from_mem (call $u32v (i64.const 128)) (call $u32v (i64.const ${LONG_SYMBOL.length}))))
  (func (export "log_it") (param $v i64) (result i64)
    (i64.store (i32.const 0) (local.get $v))
    (drop (call $log (call $u32v (i64.const 64)) (call $u32v (i64.const ${MSG.length})) (call $u32v (i64.const 0)) (call $u32v (i64.const 1))))
    (i64.const 2))
  (func (export "keccak") (param $b i64) (result i64) (call $keccak (local.get $b)))
  (func (export "verify") (param $pk i64) (param $msg i64) (param $sig i64) (result i64)
    (call $ed25519_verify (local.get $pk) (local.get $msg) (local.get $sig)))
  (func (export "rand") (param $lo i64) (param $hi i64) (result i64)
    (call $u64_val (call $rand_range (call $u64_of (local.get $lo)) (call $u64_of (local.get $hi)))))
  (func (export "strkey") (param $a i64) (result i64) (call $to_strkey (local.get $a)))
  (func (export "me") (result i64) (call $self))
  (func (export "muxed_parts") (param $m i64) (result i64)
    (call $vec_push (call $vec_push (call $vec_new) (call $muxed_address (local.get $m))) (call $muxed_id (local.get $m))))
  (func (export "exec_of") (param $a i64) (result i64) (call $executable (local.get $a)))
  (func (export "now") (result i64) (call $timestamp))
  (func (export "cmp") (param $a i64) (param $b i64) (result i64)
    (i64.or (i64.shl (call $obj_cmp (local.get $a) (local.get $b)) (i64.const 32)) (i64.const 5)))
  ;; try_call returns an Error Val instead of trapping; report whether it did (Bool: 1/0)
  (func (export "try_boom") (param $other i64) (result i64)
    (if (result i64) (i64.eq (call $tag (call $try_call (local.get $other) (i64.const ${sym('boom')}) (call $vec_new))) (i64.const 3))
      (then (i64.const 1))
      (else (i64.const 0))))
  (func (export "auth_args") (param $user i64) (param $n i64) (result i64)
    (drop (call $require_auth_for_args (local.get $user) (call $vec_push (call $vec_new) (local.get $n))))
    (i64.const 2))
)`;

const SPEC: SpecFn[] = [
  {
    name: 'i128_add',
    inputs: [
      ['a', 'i128'],
      ['b', 'i128'],
    ],
    output: 'i128',
  },
  {
    name: 'u256_add',
    inputs: [
      ['a', 'u256'],
      ['b', 'u256'],
    ],
    output: 'u256',
  },
  { name: 'u64_double', inputs: [['a', 'u64']], output: 'u64' },
  {
    name: 'map_two',
    inputs: [
      ['k1', 'symbol'],
      ['v1', 'u32'],
      ['k2', 'symbol'],
      ['v2', 'u32'],
    ],
    output: 'map',
  },
  { name: 'map_mem', inputs: [['reversed', 'bool']], output: 'map' },
  { name: 'map_keys', inputs: [['m', 'map']], output: 'vec' },
  {
    name: 'map_get',
    inputs: [
      ['m', 'map'],
      ['k', 'symbol'],
    ],
    output: 'u32',
  },
  {
    name: 'vec_front',
    inputs: [
      ['v', 'vec'],
      ['x', 'u32'],
    ],
    output: 'vec',
  },
  { name: 'vec_len', inputs: [['v', 'vec']], output: 'u32' },
  {
    name: 'vec_slice',
    inputs: [
      ['v', 'vec'],
      ['start', 'u32'],
      ['end', 'u32'],
    ],
    output: 'vec',
  },
  {
    name: 'vec_find',
    inputs: [
      ['v', 'vec'],
      ['x', 'u32'],
    ],
    output: 'option<u32>',
  },
  { name: 'bytes_mem', inputs: [['b', 'bytes']], output: 'bytes' },
  { name: 'greeting', inputs: [], output: 'string' },
  { name: 'long_sym', inputs: [], output: 'symbol' },
  { name: 'log_it', inputs: [['v', 'u32']] },
  { name: 'keccak', inputs: [['b', 'bytes']], output: 'bytes' },
  {
    name: 'verify',
    inputs: [
      ['pk', 'bytes'],
      ['msg', 'bytes'],
      ['sig', 'bytes'],
    ],
  },
  {
    name: 'rand',
    inputs: [
      ['lo', 'u64'],
      ['hi', 'u64'],
    ],
    output: 'u64',
  },
  { name: 'strkey', inputs: [['a', 'address']], output: 'string' },
  { name: 'me', inputs: [], output: 'address' },
  { name: 'muxed_parts', inputs: [['m', 'muxed_address']], output: 'vec' },
  { name: 'exec_of', inputs: [['a', 'address']], output: 'val' },
  { name: 'now', inputs: [], output: 'u64' },
  {
    name: 'cmp',
    inputs: [
      ['a', 'u64'],
      ['b', 'u64'],
    ],
    output: 'i32',
  },
  { name: 'try_boom', inputs: [['other', 'address']], output: 'bool' },
  {
    name: 'auth_args',
    inputs: [
      ['user', 'address'],
      ['n', 'u32'],
    ],
  },
];

export const HOST_FNS_MESSAGE = MSG;
export const HOST_FNS_LONG_SYMBOL = LONG_SYMBOL;

export function hostFnsWasm(): Promise<Buffer> {
  return buildContract(WAT, SPEC);
}
