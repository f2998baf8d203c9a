/**
 * Cuts a stream of samples or bytes into fixed-size frames (e.g. 160 mu-law bytes = 20 ms at 8 kHz), carrying
 * the remainder to the next push; {@link Framer.flush} hands out the last partial frame, padded when asked.
 */
import { InvalidArgumentError } from '../errors.js';

/** Typed arrays a {@link Framer} can cut. */
export type FrameArray = Uint8Array | Int16Array;

/** Fixed-size framer with remainder carry. The carry is at most one frame, so memory is bounded. */
export class Framer<T extends FrameArray> {
  /** Elements per frame. */
  readonly frameLength: number;
  private readonly carry: T;
  private carried = 0;

  /**
   * @param frameLength elements (bytes or samples) per frame
   * @param allocate makes an empty array of the element type, e.g. `(n) => new Uint8Array(n)`
   */
  constructor(
    frameLength: number,
    private readonly allocate: (length: number) => T,
  ) {
    if (!Number.isInteger(frameLength) || frameLength <= 0) throw new InvalidArgumentError(`frame length must be a positive integer, got ${frameLength}`);
    this.frameLength = frameLength;
    this.carry = allocate(frameLength);
  }

  /** Elements waiting for the next frame. */
  get pending(): number {
    return this.carried;
  }

  /** Appends `data` and returns the frames it completed (fresh arrays, safe to keep). */
  push(data: T): T[] {
    const frames: T[] = [];
    const size = this.frameLength;
    let offset = 0;
    if (this.carried > 0) {
      const take = Math.min(size - this.carried, data.length);
      this.carry.set(data.subarray(0, take), this.carried);
      this.carried += take;
      offset = take;
      if (this.carried < size) return frames;
      frames.push(this.carry.slice() as T);
      this.carried = 0;
    }
    for (; offset + size <= data.length; offset += size) frames.push(data.slice(offset, offset + size) as T);
    this.carry.set(data.subarray(offset), 0);
    this.carried = data.length - offset;
    return frames;
  }

  /**
   * Returns the partial frame left over (undefined when none) and empties the framer. With `pad`, the frame is
   * filled up to full size with that value (e.g. 0xFF, mu-law silence).
   */
  flush(pad?: number): T | undefined {
    if (this.carried === 0) return undefined;
    const frame = this.allocate(pad === undefined ? this.carried : this.frameLength);
    frame.set(this.carry.subarray(0, this.carried));
    if (pad !== undefined) frame.fill(pad, this.carried);
    this.carried = 0;
    return frame;
  }
}
