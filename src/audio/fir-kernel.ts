/**
 * The resampler's inner loop in WebAssembly SIMD: for each output, the dot product of one filter phase with a
 * window of the input history, eight floats (two f32x4 chains) at a time. The module is a dozen instructions, assembled
 * here byte by byte (no build step); one instance and one scratch memory serve every resampler in the
 * process — each call copies its taps and history in, runs, and copies the outputs out, synchronously.
 *
 * The function is, in WebAssembly text:
 * ```wat
 * (func (export "fir") (param $hist i32) (param $bank i32) (param $out i32) (param $index i32) (param $count i32) (param $taps i32)
 *   (local $k i32) (local $b i32) (local $h i32) (local $end i32) (local $acc v128) (local $acc2 v128)
 *   (block $done (loop $next
 *     (br_if $done (i32.ge_u (local.get $k) (local.get $count)))
 *     (local.set $b (i32.add (i32.load offset=0 (local.get $index)) (local.get $bank)))
 *     (local.set $h (i32.add (i32.load offset=4 (local.get $index)) (local.get $hist)))
 *     (local.set $end (i32.add (local.get $b) (i32.shl (local.get $taps) (i32.const 2))))
 *     (local.set $acc (v128.const i32x4 0 0 0 0))
 *     (local.set $acc2 (v128.const i32x4 0 0 0 0))
 *     (loop $mac
 *       (local.set $acc (f32x4.add (local.get $acc) (f32x4.mul (v128.load (local.get $b)) (v128.load (local.get $h)))))
 *       (local.set $acc2 (f32x4.add (local.get $acc2) (f32x4.mul (v128.load offset=16 (local.get $b)) (v128.load offset=16 (local.get $h)))))
 *       (local.set $b (i32.add (local.get $b) (i32.const 32)))
 *       (local.set $h (i32.add (local.get $h) (i32.const 32)))
 *       (br_if $mac (i32.lt_u (local.get $b) (local.get $end))))
 *     (local.set $acc (f32x4.add (local.get $acc) (local.get $acc2)))
 *     (f32.store (local.get $out) (f32.add (f32.add (f32.add (f32x4.extract_lane 0 (local.get $acc)) (f32x4.extract_lane 1 (local.get $acc)))
 *                                          (f32x4.extract_lane 2 (local.get $acc))) (f32x4.extract_lane 3 (local.get $acc))))
 *     (local.set $out (i32.add (local.get $out) (i32.const 4)))
 *     (local.set $index (i32.add (local.get $index) (i32.const 8)))
 *     (local.set $k (i32.add (local.get $k) (i32.const 1)))
 *     (br $next))))
 * ```
 */

// Local indices: parameters 0–5 (hist, bank, out, index, count, taps), then k, b, h, end, acc.
const [HIST, BANK, OUT, INDEX, COUNT, TAPS, K, B, H, END, ACC, ACC2] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11];
const get = (local: number): number[] => [0x20, local];
const set = (local: number): number[] => [0x21, local];
const i32Const = (value: number): number[] => [0x41, value]; // values below 64 fit one signed-LEB byte
const I32_ADD = 0x6a;
const SIMD = 0xfd;
const laneSum = (lane: number): number[] => [...get(ACC), SIMD, 0x1f, lane]; // f32x4.extract_lane
const increment = (local: number, by: number): number[] => [...get(local), ...i32Const(by), I32_ADD, ...set(local)];
/** acc += load(b + offset) * load(h + offset), as f32x4 (v128.load, f32x4.mul, f32x4.add). */
const multiplyAdd = (acc: number, offset: number): number[] => [
  ...get(acc), ...get(B), SIMD, 0x00, 0x00, offset, ...get(H), SIMD, 0x00, 0x00, offset, SIMD, 0xe6, 0x01, SIMD, 0xe4, 0x01, ...set(acc),
];

const BODY = [
  0x02, 0x40, // block $done
  0x03, 0x40, // loop $next
  ...get(K), ...get(COUNT), 0x4f, 0x0d, 0x01, // br_if $done (k >= count)
  ...get(INDEX), 0x28, 0x02, 0x00, ...get(BANK), I32_ADD, ...set(B), // b = bank + index[0]
  ...get(INDEX), 0x28, 0x02, 0x04, ...get(HIST), I32_ADD, ...set(H), // h = hist + index[1]
  ...get(B), ...get(TAPS), ...i32Const(2), 0x74, I32_ADD, ...set(END), // end = b + taps * 4
  SIMD, 0x0c, ...new Array<number>(16).fill(0), ...set(ACC), // acc = 0
  SIMD, 0x0c, ...new Array<number>(16).fill(0), ...set(ACC2), // acc2 = 0
  0x03, 0x40, // loop $mac
  ...multiplyAdd(ACC, 0), // acc += b[0..3] * h[0..3]
  ...multiplyAdd(ACC2, 16), // acc2 += b[4..7] * h[4..7] (a second chain, so the adds overlap)
  ...increment(B, 32),
  ...increment(H, 32),
  ...get(B), ...get(END), 0x49, 0x0d, 0x00, // br_if $mac (b < end)
  0x0b, // end loop $mac
  ...get(ACC), ...get(ACC2), SIMD, 0xe4, 0x01, ...set(ACC), // acc += acc2
  ...get(OUT), ...laneSum(0), ...laneSum(1), 0x92, ...laneSum(2), 0x92, ...laneSum(3), 0x92, 0x38, 0x02, 0x00, // *out = sum of lanes
  ...increment(OUT, 4),
  ...increment(INDEX, 8),
  ...increment(K, 1),
  0x0c, 0x00, // br $next
  0x0b, // end loop $next
  0x0b, // end block $done
  0x0b, // end func
];

/** Unsigned LEB128. */
function leb(value: number): number[] {
  const out: number[] = [];
  do {
    let byte = value & 0x7f;
    value >>>= 7;
    if (value !== 0) byte |= 0x80;
    out.push(byte);
  } while (value !== 0);
  return out;
}

const section = (id: number, content: number[]): number[] => [id, ...leb(content.length), ...content];
const name = (text: string): number[] => [text.length, ...Array.from(text, (c) => c.charCodeAt(0))];
const LOCALS = [0x02, 0x04, 0x7f, 0x02, 0x7b]; // 4 × i32, 2 × v128
const FUNCTION = [...LOCALS, ...BODY];

const MODULE_BYTES = new Uint8Array([
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, // \0asm, version 1
  ...section(1, [0x01, 0x60, 0x06, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 0x00]), // type: (6 × i32) -> ()
  ...section(3, [0x01, 0x00]), // one function of type 0
  ...section(5, [0x01, 0x00, 0x01]), // memory: min 1 page
  ...section(7, [0x02, ...name('memory'), 0x02, 0x00, ...name('fir'), 0x00, 0x00]),
  ...section(10, [0x01, ...leb(FUNCTION.length), ...FUNCTION]),
]);

interface KernelExports {
  memory: WebAssembly.Memory;
  fir(hist: number, bank: number, out: number, index: number, count: number, taps: number): void;
}

/** The kernel instance and typed views of its whole memory (remade when the memory grows). */
interface Scratch {
  wasm: KernelExports;
  floats: Float32Array;
  ints: Int32Array;
}

let scratch: Scratch | undefined;

function scratchOf(bytes: number): Scratch {
  if (!scratch) {
    const wasm = new WebAssembly.Instance(new WebAssembly.Module(MODULE_BYTES)).exports as unknown as KernelExports;
    scratch = { wasm, floats: new Float32Array(wasm.memory.buffer), ints: new Int32Array(wasm.memory.buffer) };
  }
  if (bytes > scratch.floats.byteLength) {
    const { memory } = scratch.wasm;
    memory.grow(Math.ceil((bytes - memory.buffer.byteLength) / 65536));
    scratch.floats = new Float32Array(memory.buffer);
    scratch.ints = new Int32Array(memory.buffer);
  }
  return scratch;
}

/** The bank last copied into the scratch memory, to skip copying it again for the same filter. */
let loadedBank: Float32Array | undefined;

/**
 * Computes `count` outputs into `out` from index `outAt`: output k is the dot product of `taps` coefficients of
 * `bank` starting at byte offset `index[2k]` with `history` starting at byte offset `index[2k + 1]`. `taps` must
 * be a multiple of 8, and every window must lie inside `history`.
 */
export function firDot(bank: Float32Array, history: Float32Array, index: Int32Array, count: number, taps: number, out: Float32Array, outAt: number): void {
  // Layout, in 4-byte words: bank | history | index (2 per output) | outputs.
  const historyAt = bank.length;
  const indexAt = historyAt + history.length;
  const resultAt = indexAt + 2 * count;
  const { wasm, floats, ints } = scratchOf((resultAt + count) * 4);
  if (loadedBank !== bank) {
    floats.set(bank, 0);
    loadedBank = bank;
  }
  floats.set(history, historyAt);
  ints.set(index.subarray(0, 2 * count), indexAt);
  wasm.fir(historyAt * 4, 0, resultAt * 4, indexAt * 4, count, taps);
  out.set(floats.subarray(resultAt, resultAt + count), outAt);
}
