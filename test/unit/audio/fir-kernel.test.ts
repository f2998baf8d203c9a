import { describe, expect, it } from 'vitest';
import { firDot } from '../../../src/audio/fir-kernel.js';

/** Deterministic pseudo-random floats in [-1, 1). */
function noise(length: number, seed: number): Float32Array {
  let state = seed;
  return Float32Array.from({ length }, () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 31 - 1;
  });
}

describe('firDot (hand-assembled WebAssembly SIMD kernel)', () => {
  it('computes each output as the dot product of its phase and history window', () => {
    const taps = 24;
    const bank = noise(3 * taps, 1);
    const history = noise(500, 2);
    const offsets = [0, 0, taps, 1, 2 * taps, 7, 0, 476, taps, 100]; // floats
    const index = Int32Array.from(offsets, (floats) => floats * 4); // the kernel takes byte offsets
    const out = new Float32Array(7).fill(9);
    firDot(bank, history, index, 5, taps, out, 1);
    expect([out[0], out[6]]).toEqual([9, 9]);
    for (let k = 0; k < 5; k++) {
      const phase = offsets[2 * k] as number;
      const start = offsets[2 * k + 1] as number;
      let expected = 0;
      for (let j = 0; j < taps; j++) expected += (bank[phase + j] as number) * (history[start + j] as number);
      expect(out[k + 1]).toBeCloseTo(expected, 4);
    }
  });

  it('grows its memory for large inputs and reloads a different bank', () => {
    const big = noise(100_000, 3);
    const ones = new Float32Array(8).fill(1);
    const halves = new Float32Array(8).fill(0.5);
    const dot = (bank: Float32Array, history: Float32Array, floatOffset: number): number => {
      const out = new Float32Array(1);
      firDot(bank, history, Int32Array.of(0, floatOffset * 4), 1, 8, out, 0);
      return out[0] as number;
    };
    const tail = big.subarray(99_992).reduce((a, b) => a + b, 0);
    expect(dot(ones, big, 99_992)).toBeCloseTo(tail, 4);
    expect(dot(halves, big, 99_992)).toBeCloseTo(tail / 2, 4);
    expect(dot(ones, big.subarray(0, 16), 8)).toBeCloseTo(big.subarray(8, 16).reduce((a, b) => a + b, 0), 4);
  });

  it('writes nothing for no outputs', () => {
    const out = Float32Array.of(5);
    firDot(new Float32Array(8), new Float32Array(8), new Int32Array(0), 0, 8, out, 0);
    expect(out[0]).toBe(5);
  });
});
