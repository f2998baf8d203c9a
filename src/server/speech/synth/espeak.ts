/**
 * The espeak-ng engine: real speech in about a hundred languages from the `espeak-ng` npm package (espeak-ng
 * compiled to WebAssembly; an optional dependency). The WASM module is compiled once per process; each
 * sentence runs the espeak-ng program in a fresh instance writing a WAV file to its in-memory file system
 * (the package exposes no way to call it twice), at most {@link ESPEAK_CONCURRENCY} at once. Its 22.05 kHz
 * output is resampled to 48 kHz and streamed in 100 ms blocks, sentence by sentence.
 *
 * Mapping: locale → espeak voice (`en-US` → `en-us`, else the language; unknown → `en-us`), the voice's
 * `espeakVariant` → `+variant`, `pitchHz` → `-p` (calibrated on `m3`/`f3`: F0 at p=50 is ~100 Hz for male and
 * ~200 Hz for female variants, ×1.33 per 30 steps), words per minute × emotion rate → `-s`, gain → `-a`.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import PQueue from 'p-queue';
import type { Logger } from 'pino';
import { createResampler } from '../../../audio/resampler.js';
import { decodeWav } from '../../audio-analysis/wav-decode.js';
import { SYNTH_SAMPLE_RATE, type SynthesisRequest, type Synthesizer } from './synthesizer.js';

/** espeak-ng programs run at once. */
export const ESPEAK_CONCURRENCY = 2;

/** Languages espeak-ng ships, by the code it uses (a locale's language is looked up here). */
const LANGUAGES = new Set(
  'af am an ar as az ba be bg bn bpy bs ca cmn cs cy da de el en eo es et eu fa fi fr ga gd gn grc gu hak haw he hi hr ht hu hy hyw ia id io is it ja jbo ka kk kl kn ko kok ku ky la lb lfn lt lv mi mk ml mr ms mt my nb nci ne nl nog om or pa pap pl pt py qu quc ro ru sd shn si sk sl smj sq sr sv sw ta te th tk tn tr tt ug uk ur uz vi yue'.split(' '),
);
/** Regional voices espeak-ng has under their own name. */
const REGIONAL = new Set(['en-us', 'en-gb-scotland', 'en-029', 'es-419', 'pt-br', 'fr-be', 'fr-ch', 'vi-vn-x-central']);

/** The espeak-ng voice name for a BCP-47 locale. */
export function espeakVoiceFor(locale: string): string {
  const lower = locale.toLowerCase();
  if (REGIONAL.has(lower)) return lower;
  const language = lower.split('-')[0] ?? 'en';
  if (language === 'zh') return 'cmn';
  if (language === 'no') return 'nb';
  if (lower.startsWith('es-') && lower !== 'es-es') return 'es-419';
  return LANGUAGES.has(language) ? language : 'en-us';
}

/** espeak's pitch parameter (0–99) for a target F0. */
export function espeakPitchFor(pitchHz: number, variant: string): number {
  const base = variant.startsWith('f') ? 200 : 100;
  return Math.round(Math.min(99, Math.max(0, 50 + (30 * Math.log(pitchHz / base)) / Math.log(1.33))));
}

interface EspeakInstance {
  FS: { readFile(path: string): Uint8Array };
}
type EspeakFactory = (options: Record<string, unknown>) => Promise<EspeakInstance>;

/** Loads the optional package and compiles its WASM; throws when it is not installed. */
export async function createEspeakSynthesizer(logger: Logger): Promise<Synthesizer> {
  const require = createRequire(import.meta.url);
  const entry = require.resolve('espeak-ng');
  const factory = ((await import('espeak-ng')) as { default: EspeakFactory }).default;
  const module = await WebAssembly.compile(await readFile(entry.replace(/espeak-ng\.js$/, 'espeak-ng.wasm')));
  logger.info('espeak-ng engine loaded');
  return new EspeakSynthesizer(factory, module);
}

/** The espeak-ng engine (see the module doc). */
export class EspeakSynthesizer implements Synthesizer {
  readonly name = 'espeak-ng';
  readonly #factory: EspeakFactory;
  readonly #module: WebAssembly.Module;
  readonly #queue = new PQueue({ concurrency: ESPEAK_CONCURRENCY });

  constructor(factory: EspeakFactory, module: WebAssembly.Module) {
    this.#factory = factory;
    this.#module = module;
  }

  async *synthesize(request: SynthesisRequest): AsyncIterable<Int16Array> {
    const sentences = request.text.match(/[^.!?。！？]+[.!?。！？]*\s*/g) ?? [];
    for (const sentence of sentences) {
      if (request.signal?.aborted) return;
      if (sentence.trim() === '') continue;
      const wav = await this.#queue.add(() => this.#run(sentence, request), request.signal ? { signal: request.signal } : {});
      if (!wav || request.signal?.aborted) return;
      const decoded = decodeWav(wav);
      const mono = decoded.channelData[0] ?? new Float32Array(0);
      const pcm = Int16Array.from(mono, (s) => Math.max(-32768, Math.min(32767, Math.round(s * 32767))));
      const resampler = createResampler(decoded.sampleRate, SYNTH_SAMPLE_RATE);
      const out = [resampler.process(pcm), resampler.flush()];
      for (const part of out) {
        for (let at = 0; at < part.length; at += SYNTH_SAMPLE_RATE / 10) {
          if (request.signal?.aborted) return;
          yield part.subarray(at, Math.min(part.length, at + SYNTH_SAMPLE_RATE / 10));
        }
      }
    }
  }

  async #run(sentence: string, request: SynthesisRequest): Promise<Uint8Array> {
    const emotion = request.emotion;
    const variant = request.voice.espeakVariant;
    const args = [
      '-v', `${espeakVoiceFor(request.locale)}+${variant}`,
      '-p', String(espeakPitchFor(request.voice.pitchHz * (emotion?.pitchScale ?? 1), variant)),
      '-s', String(Math.round(request.voice.wordsPerMinute * (emotion?.rateScale ?? 1))),
      '-a', String(Math.round(Math.min(200, 100 * (emotion?.gain ?? 1)))),
      '-w', '/out.wav',
      // a leading space keeps text that starts with '-' from being read as an option
      ` ${sentence.trim()}`,
    ];
    const instance = await this.#factory({
      arguments: args,
      instantiateWasm: (imports: WebAssembly.Imports, done: (instance: WebAssembly.Instance) => void) => {
        void WebAssembly.instantiate(this.#module, imports).then(done);
        return {};
      },
      print: () => {},
      printErr: () => {},
    });
    return instance.FS.readFile('/out.wav');
  }
}
