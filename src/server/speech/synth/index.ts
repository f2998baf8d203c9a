/** Picks the synthesis engine. */
import type { Logger } from 'pino';
import { BuiltinSynthesizer } from './builtin.js';
import type { Synthesizer } from './synthesizer.js';

/** Engine choice: deterministic built-in, espeak-ng WASM, or espeak when installed else built-in. */
export type SynthesizerEngine = 'builtin' | 'espeak' | 'auto';

/** Creates the engine named by `engine`. `auto` uses espeak-ng when its optional package loads, else the built-in one. */
export async function createSynthesizer(engine: SynthesizerEngine, logger: Logger): Promise<Synthesizer> {
  if (engine === 'builtin') return new BuiltinSynthesizer();
  try {
    const { createEspeakSynthesizer } = await import('./espeak.js');
    return await createEspeakSynthesizer(logger);
  } catch (error) {
    if (engine === 'espeak') throw new Error(`espeak-ng engine unavailable: ${(error as Error).message}`, { cause: error });
    logger.warn({ err: (error as Error).message }, 'espeak-ng unavailable, using the built-in synthesizer');
    return new BuiltinSynthesizer();
  }
}
