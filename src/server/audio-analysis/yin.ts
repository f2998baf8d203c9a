/**
 * YIN fundamental-frequency estimator (de Cheveigné & Kawahara, 2002) for one analysis frame: difference
 * function, cumulative-mean-normalized difference (CMNDF), absolute threshold with local-minimum search, and
 * parabolic interpolation. Unlike the frequency-only trackers on npm it also returns the CMNDF value at the
 * chosen lag (the frame's aperiodicity), which the voicing gate needs, and it reuses its buffers (no
 * allocation per frame).
 */

/** Options of {@link Yin}. */
export interface YinOptions {
  /** Sample rate of the frames in Hz. */
  sampleRate: number;
  /** Lowest F0 searched, Hz. Default 60. */
  minHz?: number;
  /** Highest F0 searched, Hz. Default 500. */
  maxHz?: number;
  /** CMNDF threshold of the absolute-threshold step. Default 0.15. */
  threshold?: number;
}

/** One frame's estimate. */
export interface YinEstimate {
  /** Estimated fundamental frequency, Hz. */
  f0Hz: number;
  /** CMNDF at the chosen lag: 0 for a perfectly periodic frame, near 1 for noise. */
  aperiodicity: number;
}

/** A reusable YIN estimator for frames of {@link Yin.frameLength} samples. */
export class Yin {
  /** Samples each frame must hold: the integration window plus the largest lag. */
  readonly frameLength: number;
  readonly #sampleRate: number;
  readonly #tauMin: number;
  readonly #tauMax: number;
  readonly #threshold: number;
  readonly #cmndf: Float64Array;

  constructor(options: YinOptions) {
    this.#sampleRate = options.sampleRate;
    this.#tauMin = Math.max(2, Math.floor(options.sampleRate / (options.maxHz ?? 500)));
    this.#tauMax = Math.ceil(options.sampleRate / (options.minHz ?? 60));
    this.#threshold = options.threshold ?? 0.15;
    this.frameLength = 2 * this.#tauMax;
    this.#cmndf = new Float64Array(this.#tauMax + 2);
  }

  /** Estimates F0 of `samples[offset … offset + frameLength)`. */
  estimate(samples: Float32Array, offset = 0): YinEstimate {
    const w = this.#tauMax;
    const d = this.#cmndf;
    const last = this.#tauMax + 1;
    d[0] = 1;
    let running = 0;
    for (let tau = 1; tau <= last; tau++) {
      let sum = 0;
      for (let j = 0; j < w; j++) {
        const delta = (samples[offset + j] ?? 0) - (samples[offset + j + tau] ?? 0);
        sum += delta * delta;
      }
      running += sum;
      d[tau] = running > 0 ? (sum * tau) / running : 1;
    }
    let tau = -1;
    for (let t = this.#tauMin; t <= this.#tauMax; t++) {
      if ((d[t] ?? 1) < this.#threshold) {
        while (t + 1 <= this.#tauMax && (d[t + 1] ?? 1) < (d[t] ?? 1)) t++;
        tau = t;
        break;
      }
    }
    if (tau < 0) {
      tau = this.#tauMin;
      for (let t = this.#tauMin + 1; t <= this.#tauMax; t++) if ((d[t] ?? 1) < (d[tau] ?? 1)) tau = t;
    }
    const a = d[tau - 1] ?? 1;
    const b = d[tau] ?? 1;
    const c = d[tau + 1] ?? 1;
    const denom = a - 2 * b + c;
    const shift = denom > 0 ? Math.max(-0.5, Math.min(0.5, (a - c) / (2 * denom))) : 0;
    return { f0Hz: this.#sampleRate / (tau + shift), aperiodicity: Math.max(0, b) };
  }
}
