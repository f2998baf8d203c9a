/**
 * Test voice generator: a glottal source (Rosenberg pulses with slow intonation drift and small jitter)
 * through three formant resonators, shaped into syllables separated by short pauses, plus a little noise.
 * Deterministic for a given seed.
 */

/** Options of {@link syntheticVoice}. */
export interface SyntheticVoiceOptions {
  /** Mean fundamental frequency, Hz. */
  f0Hz: number;
  /** Seconds of audio. Default 2. */
  seconds?: number;
  /** Sample rate, Hz. Default 16 000. */
  sampleRate?: number;
  /** Formant scale (1 = adult male vocal tract; about 1.17 for an adult female). Default 1. */
  formantScale?: number;
  /** Peak amplitude 0..1. Default 0.5. */
  amplitude?: number;
  /** Random seed. Default 1. */
  seed?: number;
}

/** Generates mono float samples (−1…1) of a vowel-like synthetic voice. */
export function syntheticVoice(options: SyntheticVoiceOptions): Float32Array {
  const rate = options.sampleRate ?? 16_000;
  const n = Math.round((options.seconds ?? 2) * rate);
  const scale = options.formantScale ?? 1;
  let seed = options.seed ?? 1;
  const random = (): number => {
    seed = (seed * 1_103_515_245 + 12_345) & 0x7fffffff;
    return seed / 0x7fffffff;
  };
  const source = new Float32Array(n);
  let phase = 0;
  let period = 1;
  for (let i = 0; i < n; i++) {
    const t = i / rate;
    const f0 = options.f0Hz * (1 + 0.06 * Math.sin(2 * Math.PI * 0.7 * t));
    phase += 1 / period;
    if (phase >= 1) {
      phase -= 1;
      period = (rate / f0) * (1 + 0.01 * (random() - 0.5));
    }
    // Rosenberg glottal pulse: open phase 60 % of the period, closing phase 20 %.
    source[i] = phase < 0.4 ? 0.5 * (1 - Math.cos((Math.PI * phase) / 0.4)) : phase < 0.6 ? Math.cos((Math.PI * (phase - 0.4)) / 0.4) : 0;
  }
  // Differentiate (lip radiation) then filter through formants.
  let voice: Float32Array = new Float32Array(n);
  for (let i = 1; i < n; i++) voice[i] = (source[i] ?? 0) - (source[i - 1] ?? 0);
  for (const [f, bw] of [
    [700, 110],
    [1220, 120],
    [2600, 160],
  ] as const) {
    voice = resonator(voice, f * scale, bw, rate);
  }
  let peak = 0;
  for (const v of voice) peak = Math.max(peak, Math.abs(v));
  const amplitude = options.amplitude ?? 0.5;
  const out = new Float32Array(n);
  const syllable = 0.25 * rate;
  const pause = 0.08 * rate;
  for (let i = 0; i < n; i++) {
    const pos = i % (syllable + pause);
    const env = pos < syllable ? Math.sin((Math.PI * pos) / syllable) ** 0.5 : 0;
    out[i] = ((voice[i] ?? 0) / (peak || 1)) * amplitude * env + 0.002 * (random() - 0.5);
  }
  return out;
}

function resonator(x: Float32Array, freq: number, bandwidth: number, rate: number): Float32Array {
  const r = Math.exp((-Math.PI * bandwidth) / rate);
  const a1 = 2 * r * Math.cos((2 * Math.PI * freq) / rate);
  const a2 = -r * r;
  const y = new Float32Array(x.length);
  for (let i = 0; i < x.length; i++) y[i] = (x[i] ?? 0) + a1 * (y[i - 1] ?? 0) + a2 * (y[i - 2] ?? 0);
  return y;
}

/** Converts float samples to 16-bit PCM. */
export function toInt16(samples: Float32Array): Int16Array {
  const out = new Int16Array(samples.length);
  for (let i = 0; i < samples.length; i++) out[i] = Math.max(-32768, Math.min(32767, Math.round((samples[i] ?? 0) * 32767)));
  return out;
}
