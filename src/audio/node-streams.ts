/**
 * Node stream adapter for the async-iterable transforms, for code built on `stream.pipeline`. (The other
 * direction needs no adapter: a Node Readable is already an AsyncIterable.)
 */
import { Duplex } from 'node:stream';
import type { AudioTransform } from './transforms.js';

/**
 * Wraps a transform as a Node Duplex: write inputs, read outputs. It is in object mode with a high-water mark
 * of one item on each side, so buffering stays bounded; destroying it stops the transform.
 */
export function toNodeStream<I, O>(transform: AudioTransform<I, O>): Duplex {
  return Duplex.from(transform as (source: AsyncIterable<unknown>) => AsyncIterable<unknown>);
}
