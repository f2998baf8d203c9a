/**
 * One stage of rational (L/M) polyphase FIR resampling on float samples, streaming and delay-compensated:
 * output k is the filtered signal at input time k·M/L exactly (the filter's group delay is removed), the
 * phase advances in exact integer arithmetic so no drift accumulates, and {@link PolyphaseStage.flush}
 * emits the tail so that n input samples always give ceil(n·L/M) output samples.
 */
import { designLowpass, kaiserLength, type LowpassSpec } from './fir.js';
import { firDot } from './fir-kernel.js';

/** Outputs computed per kernel call. */
const KERNEL_BLOCK = 4096;

/** Stage of a resampling cascade: up by `up`, filter, down by `down`. */
/** A designed filter bank; immutable, shared by every stage with the same design (designing costs ~0.2 ms). */
interface BankDesign {
  half: number;
  tapsPerPhase: number;
  stride: number;
  bank: Float32Array;
}

const DESIGNS = new Map<string, BankDesign>();
/** Designs kept (the service uses a few dozen rate pairs; arbitrary rates must not grow memory without bound). */
const MAX_DESIGNS = 128;

function designBank(up: number, spec: LowpassSpec): BankDesign {
  const key = `${up}|${spec.sampleRate}|${spec.passHz}|${spec.stopHz}|${spec.attenuationDb}`;
  const cached = DESIGNS.get(key);
  if (cached) return cached;
  const prototypeSpec = { ...spec, sampleRate: spec.sampleRate * up };
  let span = Math.ceil((kaiserLength(prototypeSpec) - 1) / up);
  span += span & 1; // T even, so the centre tap lands on a whole input sample of phase 0
  const tapsPerPhase = span + 1;
  const taps = designLowpass(prototypeSpec, span * up + 1, up);
  const stride = Math.ceil(tapsPerPhase / 8) * 8;
  const bank = new Float32Array(up * stride);
  for (let r = 0; r < up; r++) {
    for (let m = 0; m <= span; m++) {
      const index = r + m * up;
      bank[r * stride + (span - m)] = index < taps.length ? (taps[index] as number) : 0;
    }
  }
  const design = { half: span / 2, tapsPerPhase, stride, bank };
  if (DESIGNS.size >= MAX_DESIGNS) DESIGNS.delete(DESIGNS.keys().next().value as string);
  DESIGNS.set(key, design);
  return design;
}

export class PolyphaseStage {
  readonly up: number;
  readonly down: number;
  /** Taps per phase (T + 1 where T is even). */
  readonly tapsPerPhase: number;
  /** Taps per phase rounded up to a multiple of 8 (the SIMD kernel's step); the extra taps are zero. */
  private readonly stride: number;
  /**
   * Phase-major, `stride` floats per phase, each phase's taps reversed so that the dot product walks the
   * history forwards.
   */
  private readonly bank: Float32Array;
  private readonly half: number;
  private readonly downWhole: number;
  private readonly downRest: number;
  private history: Float32Array;
  /** Per output of a kernel block: byte offsets of its filter phase in the bank and of its window in the history. */
  private readonly index = new Int32Array(2 * KERNEL_BLOCK);
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
    const design = designBank(up, spec);
    this.half = design.half;
    this.tapsPerPhase = design.tapsPerPhase;
    this.stride = design.stride;
    this.bank = design.bank;
    this.downWhole = Math.floor(down / up);
    this.downRest = down % up;
    this.history = new Float32Array(4096);
    this.reset();
  }

  /** Filters `input` (continuing from the previous call) and returns the outputs that became computable. */
  process(input: Float32Array): Float32Array {
    this.append(input);
    this.inputs += input.length;
    return this.drain(Number.POSITIVE_INFINITY);
  }

  /** Emits the remaining outputs (the input is treated as ending here) and resets the stage for reuse. */
  flush(): Float32Array {
    const total = Math.ceil((this.inputs * this.up) / this.down);
    this.append(new Float32Array(this.half + 1));
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

  private append(input: Float32Array): void {
    const needed = this.length + input.length;
    const padding = this.stride - this.tapsPerPhase;
    if (needed + padding > this.history.length) {
      const grown = new Float32Array(Math.max(needed + padding, this.history.length * 2));
      grown.set(this.history.subarray(0, this.length));
      this.history = grown;
    }
    this.history.set(input, this.length);
    this.length = needed;
  }

  private drain(limit: number): Float32Array {
    const available = this.base + this.length; // absolute index one past the newest sample
    const count = Math.max(0, Math.min(limit, Math.ceil(((available - this.newest) * this.up - this.phase) / this.down)));
    const { up, downWhole, downRest, stride } = this;
    const span = this.tapsPerPhase - 1;
    const out = new Float32Array(count);
    // The zero taps that round a phase up to the SIMD width read just past the newest sample: keep them zero.
    this.history.fill(0, this.length, this.length + stride - this.tapsPerPhase);
    const bankStep = stride * 4;
    const wholeStep = downWhole * 4;
    let phase = this.phase;
    let window = this.newest - span - this.base; // history offset of the next output's window
    // At most KERNEL_BLOCK outputs per kernel call, so the kernel's scratch memory stays small for any input size.
    for (let done = 0; done < count; done += KERNEL_BLOCK) {
      const block = Math.min(KERNEL_BLOCK, count - done);
      const first = window;
      let historyByte = 0;
      let lastByte = 0;
      for (let k = 0; k < 2 * block; k += 2) {
        this.index[k] = phase * bankStep;
        this.index[k + 1] = historyByte;
        lastByte = historyByte;
        historyByte += wholeStep;
        phase += downRest;
        if (phase >= up) {
          phase -= up;
          historyByte += 4;
        }
      }
      window = first + historyByte / 4;
      firDot(this.bank, this.history.subarray(first, first + lastByte / 4 + stride), this.index, block, stride, out, done);
    }
    const newest = window + span + this.base;
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
