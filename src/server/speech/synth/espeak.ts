/** espeak-ng engine (optional): not available in this build yet; `auto` falls back to the built-in engine. */
import type { Logger } from 'pino';
import type { Synthesizer } from './synthesizer.js';

/** Loads the espeak-ng WASM engine. */
export async function createEspeakSynthesizer(_logger: Logger): Promise<Synthesizer> {
  throw new Error('the espeak-ng WASM package is not installed');
}
