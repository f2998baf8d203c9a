import { describe, expect, it } from 'vitest';
import { createResampler } from '../../../src/audio/resampler.js';
import { InvalidArgumentError } from '../../../src/errors.js';
import { concatInt16, db, tone, toneAmplitude } from './signals.js';

const RATES = [8000, 16000, 22050, 24000, 32000, 36000, 44100, 48000] as const;

/** Runs `input` through a fresh resampler in blocks of `block` samples (0: whole), flush included. */
function run(from: number, to: number, input: Int16Array, block = 0): Int16Array {
  const resampler = createResampler(from, to);
  const parts: Int16Array[] = [];
  const size = block || input.length;
  for (let i = 0; i < input.length; i += size) parts.push(resampler.process(input.subarray(i, i + size)));
  parts.push(resampler.flush());
  return concatInt16(parts);
}

describe('createResampler', () => {
  it('passes samples through unchanged when the rates are equal', () => {
    const input = tone(1000, 16000, 500);
    const resampler = createResampler(16000, 16000);
    const out = resampler.process(input);
    expect(out).toEqual(input);
    expect(out).not.toBe(input);
    expect(resampler.flush().length).toBe(0);
  });

  it.each(RATES.flatMap((from) => RATES.filter((to) => to !== from).map((to) => [from, to] as const)))(
    '%i → %i: ceil(n·to/from) samples, the same in 20 ms chunks as whole, tone level kept',
    (from, to) => {
      const input = tone(440, from, Math.round(from * 0.25) + 7);
      const whole = run(from, to, input);
      expect(whole.length).toBe(Math.ceil((input.length * to) / from));
      expect(run(from, to, input, from / 50)).toEqual(whole);
      expect(run(from, to, input, 37)).toEqual(whole);
      // 440 Hz in the pass band: level within 0.05 dB, measured away from the edges.
      const middle = whole.subarray(Math.round(to * 0.05), Math.round(to * 0.2));
      expect(Math.abs(db(toneAmplitude(middle, 440, to), 16000))).toBeLessThan(0.05);
    },
  );

  it('keeps the output aligned with the input (group delay removed)', () => {
    const impulse = new Int16Array(4800);
    impulse[2400] = 30000;
    const out = run(48000, 8000, impulse);
    let peak = 0;
    for (let i = 1; i < out.length; i++) if (Math.abs(out[i] as number) > Math.abs(out[peak] as number)) peak = i;
    expect(peak).toBe(400);
  });

  it('feeds one sample at a time exactly like whole buffers', () => {
    const input = tone(3000, 44100, 2000);
    expect(run(44100, 16000, input, 1)).toEqual(run(44100, 16000, input));
  });

  it('can be reused after flush', () => {
    const input = tone(700, 48000, 4800);
    const resampler = createResampler(48000, 24000);
    const first = concatInt16([resampler.process(input), resampler.flush()]);
    const second = concatInt16([resampler.process(input), resampler.flush()]);
    expect(second).toEqual(first);
  });

  it('resamples interleaved stereo channel by channel', () => {
    const left = tone(500, 48000, 4800);
    const right = tone(1500, 48000, 4800, 8000);
    const stereo = new Int16Array(9600);
    for (let i = 0; i < 4800; i++) {
      stereo[2 * i] = left[i] as number;
      stereo[2 * i + 1] = right[i] as number;
    }
    const resampler = createResampler(48000, 16000, { channels: 2 });
    const out = concatInt16([resampler.process(stereo), resampler.flush()]);
    const mono = run(48000, 16000, left);
    expect(out.filter((_, i) => i % 2 === 0)).toEqual(mono);
    expect(out.filter((_, i) => i % 2 === 1)).toEqual(run(48000, 16000, right));
  });

  it('refuses a block that is not whole frames', () => {
    expect(() => createResampler(48000, 16000, { channels: 2 }).process(new Int16Array(3))).toThrow(InvalidArgumentError);
  });

  it('rejects bad rates', () => {
    expect(() => createResampler(0, 8000)).toThrow(InvalidArgumentError);
    expect(() => createResampler(8000, 44100.5)).toThrow(InvalidArgumentError);
  });
});
