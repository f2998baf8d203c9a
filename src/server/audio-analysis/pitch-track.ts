/**
 * Pitch tracking over a whole recording: low-pass (1 kHz, 4th order) and decimate to about 8 kHz, cut into
 * 10 ms-hop frames, keep the voiced ones — loud enough (energy gate: within `dynamicRangeDb` of the loudest
 * frame and above `floorDbfs`) and periodic enough (YIN aperiodicity below `maxAperiodicity`) — and report
 * their F0 values and median. The decimation is an analysis prefilter, not a general resampler: only the band
 * below 1 kHz, where the fundamental and first harmonics of speech live, has to survive.
 */
import { Yin } from './yin.js';

/** Options of {@link trackPitch}. */
export interface PitchTrackOptions {
  /** Lowest F0 considered, Hz. Default 60. */
  minHz?: number;
  /** Highest F0 considered, Hz. Default 500. */
  maxHz?: number;
  /** Frames quieter than the loudest by more than this are unvoiced. Default 30 dB. */
  dynamicRangeDb?: number;
  /** Absolute floor: frames below it are unvoiced. Default -50 dBFS. */
  floorDbfs?: number;
  /** Frames whose YIN aperiodicity exceeds this are unvoiced. Default 0.2. */
  maxAperiodicity?: number;
}

/** What {@link trackPitch} found. */
export interface PitchTrack {
  /** Analysis frames (10 ms hop). */
  frames: number;
  /** F0 of each voiced frame, Hz, in time order. */
  voicedF0Hz: number[];
  /** Median F0 over voiced frames, Hz; undefined when no frame is voiced. */
  medianF0Hz: number | undefined;
  /** Seconds of voiced frames (voiced frames × hop). */
  voicedSeconds: number;
  /** Level of the loudest frame, dBFS (-Infinity for digital silence). */
  peakFrameDbfs: number;
}

const HOP_SECONDS = 0.01;
const CUTOFF_HZ = 1000;
const TARGET_RATE = 8000;

/** Tracks the pitch of mono `samples` (−1…1) recorded at `sampleRate`. */
export function trackPitch(samples: Float32Array, sampleRate: number, options: PitchTrackOptions = {}): PitchTrack {
  const factor = Math.max(1, Math.floor(sampleRate / TARGET_RATE));
  const rate = sampleRate / factor;
  const x = decimate(lowPass(lowPass(samples, sampleRate), sampleRate), factor);
  const yin = new Yin({ sampleRate: rate, minHz: options.minHz ?? 60, maxHz: options.maxHz ?? 500 });
  const hop = Math.max(1, Math.round(rate * HOP_SECONDS));
  const frameLength = yin.frameLength;
  const levels: number[] = [];
  for (let start = 0; start + frameLength <= x.length; start += hop) levels.push(rmsDb(x, start, frameLength));
  const peak = levels.reduce((m, v) => Math.max(m, v), -Infinity);
  const gate = Math.max(options.floorDbfs ?? -50, peak - (options.dynamicRangeDb ?? 30));
  const maxAperiodicity = options.maxAperiodicity ?? 0.2;
  const voiced: number[] = [];
  levels.forEach((level, i) => {
    if (level < gate) return;
    const estimate = yin.estimate(x, i * hop);
    if (estimate.aperiodicity <= maxAperiodicity) voiced.push(estimate.f0Hz);
  });
  return {
    frames: levels.length,
    voicedF0Hz: voiced,
    medianF0Hz: median(voiced),
    voicedSeconds: voiced.length * HOP_SECONDS,
    peakFrameDbfs: peak,
  };
}

/** Median of `values`, or undefined when empty. */
export function median(values: readonly number[]): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid] : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

/** RMS level of `x[start … start + length)` in dBFS. */
function rmsDb(x: Float32Array, start: number, length: number): number {
  let sum = 0;
  for (let i = start; i < start + length; i++) {
    const v = x[i] ?? 0;
    sum += v * v;
  }
  return 10 * Math.log10(sum / length);
}

/** One RBJ biquad low-pass section at {@link CUTOFF_HZ}, Q = 1/√2. */
function lowPass(x: Float32Array, sampleRate: number): Float32Array {
  const w0 = (2 * Math.PI * Math.min(CUTOFF_HZ, sampleRate * 0.45)) / sampleRate;
  const alpha = Math.sin(w0) / Math.SQRT2;
  const cos = Math.cos(w0);
  const a0 = 1 + alpha;
  const b0 = (1 - cos) / 2 / a0;
  const b1 = (1 - cos) / a0;
  const a1 = (-2 * cos) / a0;
  const a2 = (1 - alpha) / a0;
  const y = new Float32Array(x.length);
  let x1 = 0;
  let x2 = 0;
  let y1 = 0;
  let y2 = 0;
  for (let i = 0; i < x.length; i++) {
    const x0 = x[i] ?? 0;
    const y0 = b0 * x0 + b1 * x1 + b0 * x2 - a1 * y1 - a2 * y2;
    y[i] = y0;
    x2 = x1;
    x1 = x0;
    y2 = y1;
    y1 = y0;
  }
  return y;
}

function decimate(x: Float32Array, factor: number): Float32Array {
  if (factor === 1) return x;
  const y = new Float32Array(Math.floor(x.length / factor));
  for (let i = 0; i < y.length; i++) y[i] = x[i * factor] ?? 0;
  return y;
}
