/**
 * One stage of rational (L/M) polyphase FIR resampling on float samples, streaming and delay-compensated:
 * output k is the filtered signal at input time k·M/L exactly (the filter's group delay is removed), the
 * phase advances in exact integer arithmetic so no drift accumulates, and {@link PolyphaseStage.flush}
 * emits the tail so that n input samples always give ceil(n·L/M) output samples.
 */
import { designLowpass, kaiserLength, type LowpassSpec } from './fir.js';

/** Stage of a resampling cascade: up by `up`, filter, down by `down`. */
export class PolyphaseStage {
  readonly up: number;
  readonly down: number;
  /** Taps per phase (T + 1 where T is even). */
  readonly tapsPerPhase: number;
  /** Phase-major, each phase's taps reversed so that the dot product walks the history forwards. */
  private readonly bank: Float64Array;
  private readonly half: number;
  private readonly downWhole: number;
  private readonly downRest: number;
  private history: Float64Array;
  /** Valid samples in `history`. */
  private length = 0;
  /** Absolute input index of history[0]. */
  private base = 0;
  /** Absolute input index of the newest sample the next output uses, and its phase. */
  private newest = 0;
  private phase = 0;
  private inputs = 0;
  private outputs = 0;

  /**
   * @param up interpolation factor L
   * @param down decimation factor M (coprime with L)
   * @param spec low-pass at the input rate (pass/stop edges in Hz); designed at L times the input rate
   */
  constructor(up: number, down: number, spec: LowpassSpec) {
    this.up = up;
    this.down = down;
    const prototypeSpec = { ...spec, sampleRate: spec.sampleRate * up };
    let span = Math.ceil((kaiserLength(prototypeSpec) - 1) / up);
    span += span & 1; // T even, so the centre tap lands on a whole input sample of phase 0
    this.half = span / 2;
    this.tapsPerPhase = span + 1;
    const taps = designLowpass(prototypeSpec, span * up + 1, up);
    this.bank = new Float64Array(up * this.tapsPerPhase);
    for (let r = 0; r < up; r++) {
      for (let m = 0; m <= span; m++) {
        const index = r + m * up;
        this.bank[r * this.tapsPerPhase + (span - m)] = index < taps.length ? (taps[index] as number) : 0;
      }
    }
    this.downWhole = Math.floor(down / up);
    this.downRest = down % up;
    this.history = new Float64Array(4096);
    this.reset();
  }

  /** Filters `input` (continuing from the previous call) and returns the outputs that became computable. */
  process(input: Float64Array): Float64Array {
    this.append(input);
    this.inputs += input.length;
    return this.drain(Number.POSITIVE_INFINITY);
  }

  /** Emits the remaining outputs (the input is treated as ending here) and resets the stage for reuse. */
  flush(): Float64Array {
    const total = Math.ceil((this.inputs * this.up) / this.down);
    this.append(new Float64Array(this.half + 1));
    const out = this.drain(total - this.outputs);
    this.reset();
    return out;
  }

  /** Forgets all history, as if newly constructed. */
  reset(): void {
    const span = this.tapsPerPhase - 1;
    this.history.fill(0, 0, span);
    this.length = span;
    this.base = -span;
    this.newest = this.half;
    this.phase = 0;
    this.inputs = 0;
    this.outputs = 0;
  }

  private append(input: Float64Array): void {
    const needed = this.length + input.length;
    if (needed > this.history.length) {
      const grown = new Float64Array(Math.max(needed, this.history.length * 2));
      grown.set(this.history.subarray(0, this.length));
      this.history = grown;
    }
    this.history.set(input, this.length);
    this.length = needed;
  }

  private drain(limit: number): Float64Array {
    const available = this.base + this.length; // absolute index one past the newest sample
    const count = Math.max(0, Math.min(limit, Math.ceil(((available - this.newest) * this.up - this.phase) / this.down)));
    const out = new Float64Array(count);
    const { bank, history, tapsPerPhase: n, up, downWhole, downRest } = this;
    let newest = this.newest;
    let phase = this.phase;
    const span = n - 1;
    for (let k = 0; k < count; k++) {
      const start = newest - span - this.base;
      out[k] = up === 1 ? symmetricDot(bank, history, start, span) : dot(bank, phase * n, history, start, n);
      newest += downWhole;
      phase += downRest;
      if (phase >= up) {
        phase -= up;
        newest += 1;
      }
    }
    this.newest = newest;
    this.phase = phase;
    this.outputs += count;
    const keepFrom = Math.min(newest - span, available) - this.base;
    if (keepFrom > 0) {
      this.history.copyWithin(0, keepFrom, this.length);
      this.length -= keepFrom;
      this.base += keepFrom;
    }
    return out;
  }
}

/** Dot product of `n` taps of `bank` from `offset` with `history` from `start`. */
function dot(bank: Float64Array, offset: number, history: Float64Array, start: number, n: number): number {
  let s0 = 0;
  let s1 = 0;
  let j = 0;
  for (; j + 1 < n; j += 2) {
    s0 += (bank[offset + j] as number) * (history[start + j] as number);
    s1 += (bank[offset + j + 1] as number) * (history[start + j + 1] as number);
  }
  if (j < n) s0 += (bank[offset + j] as number) * (history[start + j] as number);
  return s0 + s1;
}

/** Dot product with a symmetric filter of `span + 1` taps (span even): each coefficient multiplies two samples. */
function symmetricDot(bank: Float64Array, history: Float64Array, start: number, span: number): number {
  const half = span >> 1;
  const end = start + span;
  let s0 = (bank[half] as number) * (history[start + half] as number);
  let s1 = 0;
  let j = 0;
  for (; j + 1 < half; j += 2) {
    s0 += (bank[j] as number) * ((history[start + j] as number) + (history[end - j] as number));
    s1 += (bank[j + 1] as number) * ((history[start + j + 1] as number) + (history[end - j - 1] as number));
  }
  if (j < half) s0 += (bank[j] as number) * ((history[start + j] as number) + (history[end - j] as number));
  return s0 + s1;
}
