/**
 * The built-in synthesizer: a small deterministic source-filter (formant) synthesizer. A glottal impulse
 * train at the voice's pitch excites three formant resonators chosen per letter; fricatives and bursts are
 * shaped noise from a seeded generator; spaces and punctuation are pauses. Output depends only on the
 * request (text, locale, voice, emotion), so tests can assert exact bytes and predict durations.
 *
 * Duration model ({@link predictDurationMs}): every character that is not a space or pause mark lasts
 * `charMs = 60000 / (wordsPerMinute * 6 * rateScale)` (a word is about 5 letters and a space); a space lasts
 * `charMs`, `,;:` pause 3 × charMs and `.!?` pause 5 × charMs. Whitespace-only text yields no audio.
 */
import { SYNTH_SAMPLE_RATE, type SynthesisRequest, type Synthesizer } from './synthesizer.js';

const RATE = SYNTH_SAMPLE_RATE;
/** Samples in the first block of a request: 20 ms. */
const FIRST_BLOCK_SAMPLES = RATE / 50;

/** Formant frequencies (Hz, adult male) and relative amplitude of each sound class. */
interface Sound {
  formants: readonly [number, number, number];
  voiced: number;
  noise: number;
}

const VOWELS: Record<string, readonly [number, number, number]> = {
  a: [730, 1090, 2440],
  e: [530, 1840, 2480],
  i: [270, 2290, 3010],
  o: [570, 840, 2410],
  u: [300, 870, 2240],
  y: [300, 2000, 2700],
};
const VOWEL_LIST = Object.values(VOWELS);

function soundOf(ch: string): Sound {
  const lower = ch.toLowerCase();
  const vowel = VOWELS[lower];
  if (vowel) return { formants: vowel, voiced: 1, noise: 0 };
  if ('mn'.includes(lower)) return { formants: [250, 1700, 2500], voiced: 0.45, noise: 0 };
  if ('lrwj'.includes(lower)) return { formants: [350, 1300, 2500], voiced: 0.6, noise: 0 };
  if ('bdgvz'.includes(lower)) return { formants: [300, 1500, 2500], voiced: 0.35, noise: 0.25 };
  if ('sfhxcq'.includes(lower)) return { formants: [500, 1500, 2500], voiced: 0, noise: 0.35 };
  if ('ptk'.includes(lower)) return { formants: [500, 1500, 2500], voiced: 0, noise: 0.2 };
  // Any other letter or digit (any script): a vowel picked by code point, so every language is voiced.
  const cp = ch.codePointAt(0) ?? 0;
  return { formants: VOWEL_LIST[cp % VOWEL_LIST.length] ?? [500, 1500, 2500], voiced: 0.9, noise: 0 };
}

/** Kind of each character in the duration model. */
function pauseFactor(ch: string): number | undefined {
  if (/\s/.test(ch)) return 1;
  if (',;:'.includes(ch)) return 3;
  if ('.!?…'.includes(ch)) return 5;
  if (/[\p{P}\p{S}]/u.test(ch)) return 1; // other punctuation and symbols: a short gap
  return undefined;
}

/** Milliseconds of one character at the request's rate. */
export function charDurationMs(request: Pick<SynthesisRequest, 'voice' | 'emotion'>): number {
  return 60_000 / (request.voice.wordsPerMinute * 6 * (request.emotion?.rateScale ?? 1));
}

/** Duration the built-in engine produces for `request`, in samples at 48 kHz (see the module doc). */
export function predictDurationSamples(request: Pick<SynthesisRequest, 'text' | 'voice' | 'emotion'>): number {
  if (request.text.trim() === '') return 0;
  const perChar = Math.round((charDurationMs(request) * RATE) / 1000);
  let total = 0;
  for (const ch of request.text) total += perChar * (pauseFactor(ch) ?? 1);
  return total;
}

/** Duration in ms (see {@link predictDurationSamples}). */
export function predictDurationMs(request: Pick<SynthesisRequest, 'text' | 'voice' | 'emotion'>): number {
  return (predictDurationSamples(request) / RATE) * 1000;
}

/** Two-pole resonator (one formant). */
class Resonator {
  #y1 = 0;
  #y2 = 0;
  #a = 0;
  #b = 0;
  #c = 0;
  set(freq: number, bandwidth: number): void {
    const r = Math.exp((-Math.PI * bandwidth) / RATE);
    this.#b = 2 * r * Math.cos((2 * Math.PI * freq) / RATE);
    this.#c = -r * r;
    this.#a = 1 - this.#b - this.#c;
  }
  step(x: number): number {
    const y = this.#a * x + this.#b * this.#y1 + this.#c * this.#y2;
    this.#y2 = this.#y1;
    this.#y1 = y;
    return y;
  }
}

function hash(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

/** The deterministic built-in engine. */
export class BuiltinSynthesizer implements Synthesizer {
  readonly name = 'builtin';

  async *synthesize(request: SynthesisRequest): AsyncIterable<Int16Array> {
    const text = request.text;
    if (text.trim() === '') return;
    const signal = request.signal;
    const pitchScale = request.emotion?.pitchScale ?? 1;
    const gain = 0.35 * (request.emotion?.gain ?? 1);
    const basePitch = request.voice.pitchHz * pitchScale;
    // Formants scale with vocal tract length: higher voices get shorter tracts.
    const formantScale = Math.min(1.25, Math.max(0.9, Math.sqrt(request.voice.pitchHz / 120)));
    const perChar = Math.round((charDurationMs(request) * RATE) / 1000);
    const resonators = [new Resonator(), new Resonator(), new Resonator()] as const;
    let seed = hash(`${request.voice.voicePromptId}|${request.locale}|${text}`) || 1;
    const noise = (): number => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return (seed / 0x100000000) * 2 - 1;
    };
    const chars = [...text];
    const total = chars.length;
    let phase = 0;
    let lastNoise = 0;
    // The first block leaves after 20 ms of audio (lowest first-audio latency); later blocks at word ends or
    // every ~100 ms, so no block hogs the event loop.
    const block = new Float32Array(RATE);
    let fill = 0;
    let first = true;
    for (let index = 0; index < total; index++) {
      if (signal?.aborted) return;
      const ch = chars[index] as string;
      const pause = pauseFactor(ch);
      const n = perChar * (pause ?? 1);
      if (fill + n > block.length) {
        yield toInt16(block, fill);
        fill = 0;
        first = false;
        await new Promise<void>((resolve) => setImmediate(resolve));
        if (signal?.aborted) return;
      }
      if (pause !== undefined) {
        block.fill(0, fill, fill + n);
        fill += n;
      } else {
        const sound = soundOf(ch);
        resonators.forEach((r, k) => r.set((sound.formants[k] ?? 1000) * formantScale, 60 + 40 * k));
        // Declination across the text plus a small rise on the last word of a question.
        const progress = index / total;
        const question = text.trimEnd().endsWith('?') && progress > 0.8 ? 1.15 : 1;
        const step = (basePitch * (1.06 - 0.12 * progress) * question) / RATE;
        const [r1, r2, r3] = resonators;
        for (let i = 0; i < n; i++) {
          const envelope = Math.min(1, i / 240, (n - i) / 240); // 5 ms fades: no clicks between letters
          phase += step;
          let source = 0;
          if (phase >= 1) {
            phase -= 1;
            source = sound.voiced * 8;
          }
          const white = noise();
          const hiss = (white - lastNoise) * sound.noise; // first difference: a high-passed hiss
          lastNoise = white;
          block[fill++] = (r3.step(r2.step(r1.step(source))) * 0.6 + hiss) * envelope * gain;
          if (first && fill >= FIRST_BLOCK_SAMPLES) {
            yield toInt16(block, fill);
            fill = 0;
            first = false;
            if (signal?.aborted) return;
          }
        }
      }
      const wordEnd = pause !== undefined || index === total - 1;
      if (fill > 0 && (first || wordEnd || fill >= RATE / 10)) {
        yield toInt16(block, fill);
        fill = 0;
        first = false;
        await new Promise<void>((resolve) => setImmediate(resolve)); // let sockets and timers run
      }
    }
    if (fill > 0 && !signal?.aborted) yield toInt16(block, fill);
  }
}

function toInt16(samples: Float32Array, length: number): Int16Array {
  const out = new Int16Array(length);
  for (let i = 0; i < length; i++) out[i] = Math.max(-32768, Math.min(32767, Math.round((samples[i] as number) * 32767)));
  return out;
}
