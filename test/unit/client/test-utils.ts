/** Small helpers shared by the client and pipeline tests. */
import type { AudioChunk } from '../../../src/client/speech/audio-chunk.js';
import { VoxpipeError } from '../../../src/errors.js';

/** Reads a turn's audio to the end. */
export async function collect(iterable: AsyncIterable<AudioChunk>): Promise<AudioChunk[]> {
  const out: AudioChunk[] = [];
  for await (const chunk of iterable) out.push(chunk);
  return out;
}

/** The error code `promise` rejects with, `resolved` when it does not, `untyped: …` for a foreign error. */
export async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    return error instanceof VoxpipeError ? error.code : `untyped: ${String(error)}`;
  }
  return 'resolved';
}

/** A deterministic pseudo-random generator (LCG) so randomized tests reproduce. */
export function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** Runs one whole turn of `text` on `session` and returns its audio. */
export async function sayAll(session: { turn(): { write(text: string): void; end(): void; audio(): AsyncIterable<AudioChunk> } }, text: string): Promise<AudioChunk[]> {
  const turn = session.turn();
  turn.write(text);
  turn.end();
  return collect(turn.audio());
}
