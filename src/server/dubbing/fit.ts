/**
 * Fits synthesized speech into a segment's time slot. Speech that fits is kept as is (the mixer pads the rest
 * of the slot with silence). Longer speech is sped up without changing its pitch by WSOLA (waveform-similarity
 * overlap-add: 40 ms Hann frames at 50 % overlap, each analysis frame shifted by up to ±10 ms to the position
 * whose waveform best continues the previous frame), by at most {@link MAX_SPEEDUP}; whatever still does not
 * fit is trimmed with a 10 ms fade-out.
 */

/** Largest tempo increase applied before trimming. */
export const MAX_SPEEDUP = 1.5;

const FRAME = 1920; // 40 ms at 48 kHz
const HOP = FRAME / 2;
const TOLERANCE = 480; // ±10 ms
const FADE = 480; // 10 ms

const hann = Float32Array.from({ length: FRAME }, (_, i) => 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / FRAME));

/** Offset in `[target - TOLERANCE, target + TOLERANCE]` whose next `HOP` samples best match `x[natural…]`. */
function bestOffset(x: Float32Array, natural: number, target: number): number {
  const lo = Math.max(0, target - TOLERANCE);
  const hi = Math.min(x.length - FRAME, target + TOLERANCE);
  if (hi <= lo) return Math.max(0, Math.min(target, x.length - FRAME));
  let best = Math.min(Math.max(target, lo), hi);
  let bestScore = -Infinity;
  const score = (c: number): number => {
    let s = 0;
    for (let i = 0; i < HOP; i += 2) s += (x[natural + i] ?? 0) * (x[c + i] ?? 0);
    return s;
  };
  for (let c = lo; c <= hi; c += 4) {
    const s = score(c);
    if (s > bestScore) [best, bestScore] = [c, s];
  }
  for (let c = Math.max(lo, best - 3); c <= Math.min(hi, best + 3); c++) {
    const s = score(c);
    if (s > bestScore) [best, bestScore] = [c, s];
  }
  return best;
}

/** Changes the duration of `pcm` to exactly `outLength` samples without changing its pitch (WSOLA). */
export function timeStretch(pcm: Int16Array, outLength: number): Int16Array {
  if (pcm.length < FRAME * 2 || outLength <= 0) return pcm.slice(0, Math.max(0, outLength));
  const x = Float32Array.from(pcm);
  const out = new Float32Array(outLength + FRAME);
  const rate = (pcm.length - FRAME) / Math.max(1, outLength - FRAME);
  let previous = 0;
  for (let k = 0; k * HOP < outLength; k++) {
    const target = Math.round(k * HOP * rate);
    const at = k === 0 ? 0 : bestOffset(x, Math.min(previous + HOP, x.length - HOP), target);
    for (let i = 0; i < FRAME; i++) out[k * HOP + i] = (out[k * HOP + i] ?? 0) + (x[at + i] ?? 0) * (hann[i] ?? 0);
    previous = at;
  }
  const result = new Int16Array(outLength);
  for (let i = 0; i < outLength; i++) result[i] = Math.max(-32768, Math.min(32767, Math.round(out[i] ?? 0)));
  // Only the rising half of frame 0 (taken from input offset 0) covers the first hop: copy the input there.
  result.set(pcm.subarray(0, Math.min(HOP, outLength)));
  return result;
}

/** How a segment was fitted. */
export interface FitResult {
  pcm: Int16Array;
  /** Tempo factor applied (1 = unchanged). */
  speedup: number;
  /** Whether the tail had to be cut off. */
  trimmed: boolean;
}

/** Fits `pcm` into `slotSamples` samples: unchanged, sped up (≤ {@link MAX_SPEEDUP}), then trimmed with a fade. */
export function fitToSlot(pcm: Int16Array, slotSamples: number): FitResult {
  if (pcm.length <= slotSamples) return { pcm, speedup: 1, trimmed: false };
  const speedup = Math.min(MAX_SPEEDUP, pcm.length / slotSamples);
  const stretched = timeStretch(pcm, Math.round(pcm.length / speedup));
  if (stretched.length <= slotSamples) return { pcm: stretched, speedup, trimmed: false };
  const cut = stretched.slice(0, slotSamples);
  const fade = Math.min(FADE, cut.length);
  for (let i = 0; i < fade; i++) {
    const index = cut.length - fade + i;
    cut[index] = Math.round((cut[index] ?? 0) * (1 - (i + 1) / fade));
  }
  return { pcm: cut, speedup, trimmed: true };
}
