/**
 * Node stream adapter for the async-iterable transforms, for code built on `stream.pipeline`. (The other
 * direction needs no adapter: a Node Readable is already an AsyncIterable.)
 *
 * Not `Duplex.from(generatorFunction)`: on Node 20 destroying such a Duplex while the generator waits for
 * input never settles (the input iterator only looks at its abort signal after the next write), so the
 * transform's `finally` blocks never run and 'close' is never emitted.
 */
import { Duplex } from 'node:stream';
import { AbortError } from '../errors.js';
import type { AudioTransform } from './transforms.js';

/**
 * Wraps a transform as a Node Duplex in object mode: write inputs, read outputs. At most one input waits for
 * the transform (the write callback fires when the transform takes it) and one output waits for the reader,
 * so buffering is bounded. Destroying the Duplex makes the transform's input throw an {@link AbortError}, so
 * the transform stops and its `finally` blocks run; an error thrown by the transform destroys the Duplex.
 */
export function toNodeStream<I, O>(transform: AudioTransform<I, O>): Duplex {
  let waiting: { chunk: I; taken: (error?: Error | null) => void } | undefined;
  let ended = false;
  let failure: Error | undefined;
  let wake: (() => void) | undefined;
  const signal = (): void => {
    wake?.();
    wake = undefined;
  };

  async function* input(): AsyncIterable<I> {
    for (;;) {
      while (!waiting && !ended && !failure) await new Promise<void>((resolve) => (wake = resolve));
      if (failure) throw failure;
      if (!waiting) return;
      const { chunk, taken } = waiting;
      waiting = undefined;
      taken();
      yield chunk;
    }
  }

  const output = transform(input())[Symbol.asyncIterator]();
  let reading = false;
  const duplex = new Duplex({
    objectMode: true,
    highWaterMark: 1,
    write(chunk: I, _encoding, taken) {
      waiting = { chunk, taken };
      signal();
    },
    final(done) {
      ended = true;
      signal();
      done();
    },
    read() {
      if (reading) return;
      reading = true;
      output.next().then(
        (result) => {
          reading = false;
          duplex.push(result.done ? null : result.value);
        },
        (error: unknown) => duplex.destroy(error instanceof Error ? error : new Error(String(error))),
      );
    },
    destroy(error, done) {
      failure = error ?? new AbortError('the stream was destroyed');
      waiting?.taken(failure);
      waiting = undefined;
      signal(); // a transform waiting for input now throws
      output.return?.().catch(() => undefined); // a transform paused at a yield now returns
      done(error);
    },
  });
  return duplex;
}
