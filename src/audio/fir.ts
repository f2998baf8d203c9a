/**
 * Kaiser-windowed sinc low-pass design for the polyphase resampler: the length and window shape come from
 * Kaiser's formulas for a given transition band and stop-band attenuation.
 */

/** A low-pass specification at a given sample rate (all frequencies in Hz). */
export interface LowpassSpec {
  /** Sample rate the filter runs at. */
  sampleRate: number;
  /** Highest frequency passed with negligible ripple. */
  passHz: number;
  /** Lowest frequency attenuated by at least `attenuationDb`. */
  stopHz: number;
  /** Stop-band attenuation in dB. */
  attenuationDb: number;
}

/** Kaiser's estimate of the filter length (in taps) that meets `spec`. */
export function kaiserLength(spec: LowpassSpec): number {
  const transition = (2 * Math.PI * (spec.stopHz - spec.passHz)) / spec.sampleRate;
  return Math.ceil((spec.attenuationDb - 7.95) / (2.285 * transition)) + 1;
}

/** Kaiser's window shape parameter β for a stop-band attenuation in dB. */
export function kaiserBeta(attenuationDb: number): number {
  if (attenuationDb > 50) return 0.1102 * (attenuationDb - 8.7);
  if (attenuationDb >= 21) return 0.5842 * (attenuationDb - 21) ** 0.4 + 0.07886 * (attenuationDb - 21);
  return 0;
}

/** Zeroth-order modified Bessel function of the first kind (power series). */
function besselI0(x: number): number {
  let sum = 1;
  let term = 1;
  const quarterSquare = (x * x) / 4;
  for (let k = 1; k < 64 && term > sum * 1e-17; k++) {
    term *= quarterSquare / (k * k);
    sum += term;
  }
  return sum;
}

/**
 * Designs a linear-phase low-pass of `length` taps (odd, so its centre falls on a tap) with the cut-off
 * halfway through the transition band and unit DC gain multiplied by `gain`.
 */
export function designLowpass(spec: LowpassSpec, length: number, gain = 1): Float64Array {
  const taps = new Float64Array(length);
  const centre = (length - 1) / 2;
  const cutoff = (spec.passHz + spec.stopHz) / 2 / spec.sampleRate; // cycles per sample
  const beta = kaiserBeta(spec.attenuationDb);
  const norm = besselI0(beta);
  let sum = 0;
  for (let n = 0; n < length; n++) {
    const t = n - centre;
    const sinc = t === 0 ? 2 * cutoff : Math.sin(2 * Math.PI * cutoff * t) / (Math.PI * t);
    const ratio = centre === 0 ? 0 : t / centre;
    const value = sinc * (besselI0(beta * Math.sqrt(Math.max(0, 1 - ratio * ratio))) / norm);
    taps[n] = value;
    sum += value;
  }
  for (let n = 0; n < length; n++) taps[n] = ((taps[n] as number) / sum) * gain;
  return taps;
}
