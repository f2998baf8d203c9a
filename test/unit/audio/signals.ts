/** Test signals and measurements: sine tones, Goertzel tone power, RMS. */

/** A sine tone of `amplitude` (16-bit units) at `hz`, `length` samples at `rate`. */
export function tone(hz: number, rate: number, length: number, amplitude = 16000, phase = 0): Int16Array {
  const out = new Int16Array(length);
  for (let i = 0; i < length; i++) out[i] = Math.round(amplitude * Math.sin((2 * Math.PI * hz * i) / rate + phase));
  return out;
}

/** Amplitude of the `hz` component of `samples` (a sine of amplitude A gives A), by the Goertzel algorithm with a Hann window. */
export function toneAmplitude(samples: ArrayLike<number>, hz: number, rate: number): number {
  const n = samples.length;
  const w = (2 * Math.PI * hz) / rate;
  const coeff = 2 * Math.cos(w);
  let s1 = 0;
  let s2 = 0;
  let windowSum = 0;
  for (let i = 0; i < n; i++) {
    const hann = 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / (n - 1));
    windowSum += hann;
    const s0 = (samples[i] as number) * hann + coeff * s1 - s2;
    s2 = s1;
    s1 = s0;
  }
  const power = s1 * s1 + s2 * s2 - coeff * s1 * s2;
  return (2 * Math.sqrt(Math.max(0, power))) / windowSum;
}

/** Root mean square of `samples`. */
export function rms(samples: ArrayLike<number>): number {
  let sum = 0;
  for (let i = 0; i < samples.length; i++) sum += (samples[i] as number) ** 2;
  return Math.sqrt(sum / Math.max(1, samples.length));
}

/** 20·log10(a / b). */
export function db(a: number, b: number): number {
  return 20 * Math.log10(a / b);
}

/** Concatenates Int16Arrays. */
export function concatInt16(parts: readonly Int16Array[]): Int16Array {
  const out = new Int16Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** Drains an async iterable into an array. */
export async function collect<T>(source: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of source) out.push(item);
  return out;
}

/** An async iterable over `items`. */
export async function* fromItems<T>(items: Iterable<T>): AsyncIterable<T> {
  yield* items;
}
