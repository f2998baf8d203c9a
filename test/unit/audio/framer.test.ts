import { describe, expect, it } from 'vitest';
import { Framer } from '../../../src/audio/framer.js';
import { InvalidArgumentError } from '../../../src/errors.js';

describe('Framer', () => {
  it('cuts samples into fixed frames across pushes, carrying the remainder', () => {
    const framer = new Framer(4, (n) => new Int16Array(n));
    expect(framer.push(Int16Array.of(1, 2, 3))).toEqual([]);
    expect(framer.pending).toBe(3);
    expect(framer.push(Int16Array.of(4, 5, 6, 7, 8, 9, 10))).toEqual([Int16Array.of(1, 2, 3, 4), Int16Array.of(5, 6, 7, 8)]);
    expect(framer.pending).toBe(2);
    expect(framer.flush()).toEqual(Int16Array.of(9, 10));
    expect(framer.flush()).toBeUndefined();
  });

  it('gives frames that stay valid after later pushes', () => {
    const framer = new Framer(2, (n) => new Uint8Array(n));
    const input = Uint8Array.of(1, 2, 3);
    const [first] = framer.push(input);
    input.fill(0);
    const [second] = framer.push(Uint8Array.of(4));
    expect([first, second]).toEqual([Uint8Array.of(1, 2), Uint8Array.of(3, 4)]);
  });

  it('byte-at-a-time input gives the same frames as one block', () => {
    const bytes = Uint8Array.from({ length: 1000 }, (_, i) => i % 251);
    const whole = new Framer(160, (n) => new Uint8Array(n)).push(bytes);
    const framer = new Framer(160, (n) => new Uint8Array(n));
    const single = Array.from(bytes).flatMap((b) => framer.push(Uint8Array.of(b)));
    expect(single).toEqual(whole);
    expect(framer.flush(0xff)).toEqual(Uint8Array.from({ length: 160 }, (_, i) => (i < 40 ? (960 + i) % 251 : 0xff)));
  });

  it('refuses a frame length that is not a positive integer', () => {
    expect(() => new Framer(0, (n) => new Uint8Array(n))).toThrow(InvalidArgumentError);
    expect(() => new Framer(2.5, (n) => new Uint8Array(n))).toThrow(InvalidArgumentError);
  });
});
