/**
 * Streaming, stateful sample-rate conversion between the service's rates (8000 … 48000 Hz) for 16-bit PCM.
 * Polyphase Kaiser-windowed sinc FIR, designed for ≥ 80 dB stop-band attenuation from the lower rate's
 * Nyquist frequency upwards with the pass band flat to 85 % of it (3.4 kHz at 8 kHz). Integer decimations
 * by an even factor above 2 (48 → 8 kHz, 32 → 8 kHz) run as two stages, the first one short because it only
 * has to keep images out of the final band. Equal rates pass samples through unchanged. The dot products run
 * in a WebAssembly SIMD kernel (see fir-kernel.ts) on 32-bit floats; samples are rounded back to 16 bits once,
 * at the end.
 */
import { InvalidArgumentError } from '../errors.js';
import { PolyphaseStage } from './polyphase.js';

/** Stop-band attenuation the filters are designed for, in dB. */
export const RESAMPLER_ATTENUATION_DB = 80;
/** Pass-band edge as a fraction of the lower rate's Nyquist frequency. */
export const RESAMPLER_PASSBAND = 0.85;

/** A streaming resampler for mono (or interleaved, see `channels`) 16-bit PCM. */
export interface Resampler {
  readonly fromRate: number;
  readonly toRate: number;
  readonly channels: number;
  /** Converts the next block (any number of whole frames); returns the samples that became available. */
  process(input: Int16Array): Int16Array;
  /** Ends the stream: returns the tail so that n input frames gave ceil(n·to/from) output frames, then resets. */
  flush(): Int16Array;
  /** Output samples the resampler holds back (its look-ahead), in output frames. */
  readonly latencyFrames: number;
}

/** Options of {@link createResampler}. */
export interface ResamplerOptions {
  /** Interleaved channels in the PCM (default 1). */
  channels?: number;
}

/** Creates a streaming resampler from `fromRate` to `toRate` (Hz, positive integers). */
export function createResampler(fromRate: number, toRate: number, options: ResamplerOptions = {}): Resampler {
  const channels = options.channels ?? 1;
  for (const [name, value] of [['fromRate', fromRate], ['toRate', toRate], ['channels', channels]] as const) {
    if (!Number.isInteger(value) || value <= 0) throw new InvalidArgumentError(`${name} must be a positive integer, got ${value}`);
  }
  if (fromRate === toRate) return passthrough(fromRate, channels);
  return new CascadeResampler(fromRate, toRate, channels);
}

function passthrough(rate: number, channels: number): Resampler {
  return { fromRate: rate, toRate: rate, channels, latencyFrames: 0, process: (input) => input.slice(), flush: () => new Int16Array(0) };
}

/** Builds the stages for `from` → `to` (see the module comment). */
function planStages(from: number, to: number): PolyphaseStage[] {
  const lower = Math.min(from, to);
  const passHz = (RESAMPLER_PASSBAND * lower) / 2;
  const attenuationDb = RESAMPLER_ATTENUATION_DB;
  const factor = from / to;
  if (Number.isInteger(factor) && factor > 2 && factor % 2 === 0) {
    const middle = to * 2;
    return [
      new PolyphaseStage(1, factor / 2, { sampleRate: from, passHz, stopHz: middle - to / 2, attenuationDb }),
      new PolyphaseStage(1, 2, { sampleRate: middle, passHz, stopHz: to / 2, attenuationDb }),
    ];
  }
  const divisor = gcd(from, to);
  return [new PolyphaseStage(to / divisor, from / divisor, { sampleRate: from, passHz, stopHz: lower / 2, attenuationDb })];
}

function gcd(a: number, b: number): number {
  while (b !== 0) [a, b] = [b, a % b];
  return a;
}

class CascadeResampler implements Resampler {
  readonly fromRate: number;
  readonly toRate: number;
  readonly channels: number;
  readonly latencyFrames: number;
  /** One cascade per channel. */
  private readonly lanes: PolyphaseStage[][];

  constructor(fromRate: number, toRate: number, channels: number) {
    this.fromRate = fromRate;
    this.toRate = toRate;
    this.channels = channels;
    this.lanes = Array.from({ length: channels }, () => planStages(fromRate, toRate));
    let delaySeconds = 0;
    let rate = fromRate;
    for (const stage of this.lanes[0] ?? []) {
      delaySeconds += (stage.tapsPerPhase - 1) / 2 / rate;
      rate = (rate * stage.up) / stage.down;
    }
    this.latencyFrames = Math.ceil(delaySeconds * toRate);
  }

  process(input: Int16Array): Int16Array {
    if (input.length % this.channels !== 0) throw new InvalidArgumentError(`${input.length} samples are not whole frames of ${this.channels} channels`);
    return this.run((stages, samples) => stages.reduce<Float32Array>((block, stage) => stage.process(block), samples), input);
  }

  flush(): Int16Array {
    return this.run((stages) => stages.reduce<Float32Array>((block, stage) => concat(stage.process(block), stage.flush()), new Float32Array(0)), new Int16Array(0));
  }

  private run(step: (stages: PolyphaseStage[], samples: Float32Array) => Float32Array, input: Int16Array): Int16Array {
    const { channels } = this;
    const frames = Math.floor(input.length / channels);
    let length = 0;
    let out = new Int16Array(0);
    for (let channel = 0; channel < channels; channel++) {
      let samples: Float32Array;
      if (channels === 1) samples = new Float32Array(input);
      else {
        samples = new Float32Array(frames);
        for (let i = 0; i < frames; i++) samples[i] = input[i * channels + channel] as number;
      }
      const result = step(this.lanes[channel] as PolyphaseStage[], samples);
      if (channel === 0) {
        length = result.length;
        out = new Int16Array(length * channels);
      }
      for (let i = 0; i < length; i++) {
        const v = Math.round(result[i] as number);
        out[i * channels + channel] = v > 32767 ? 32767 : v < -32768 ? -32768 : v;
      }
    }
    return out;
  }
}

function concat(a: Float32Array, b: Float32Array): Float32Array {
  if (a.length === 0) return b;
  if (b.length === 0) return a;
  const out = new Float32Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}
