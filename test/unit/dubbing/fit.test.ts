import { describe, expect, it } from 'vitest';
import { fitToSlot, MAX_SPEEDUP, timeStretch } from '../../../src/server/dubbing/fit.js';

const sine = (hz: number, samples: number, amplitude = 10_000): Int16Array => Int16Array.from({ length: samples }, (_, i) => Math.round(amplitude * Math.sin((2 * Math.PI * hz * i) / 48_000)));

/** Frequency estimated from upward zero crossings over the middle of the signal. */
function frequency(pcm: Int16Array): number {
  const from = Math.floor(pcm.length / 4);
  const to = Math.floor((pcm.length * 3) / 4);
  let crossings = 0;
  for (let i = from + 1; i < to; i++) if ((pcm[i - 1] ?? 0) < 0 && (pcm[i] ?? 0) >= 0) crossings++;
  return (crossings * 48_000) / (to - from);
}

const rms = (pcm: Int16Array): number => Math.sqrt(pcm.reduce((s, v) => s + v * v, 0) / pcm.length);

describe('timeStretch (WSOLA)', () => {
  it('produces exactly the asked length and keeps the pitch and level', () => {
    const input = sine(220, 48_000);
    for (const out of [30_000, 36_000, 40_000]) {
      const stretched = timeStretch(input, out);
      expect(stretched.length).toBe(out);
      expect(frequency(stretched)).toBeGreaterThan(210);
      expect(frequency(stretched)).toBeLessThan(230);
      expect(rms(stretched) / rms(input)).toBeGreaterThan(0.85);
      expect(rms(stretched) / rms(input)).toBeLessThan(1.15);
    }
  });

  it('starts with the input unchanged', () => {
    const input = sine(300, 20_000);
    expect(Array.from(timeStretch(input, 15_000).subarray(0, 900))).toEqual(Array.from(input.subarray(0, 900)));
  });
});

describe('fitToSlot', () => {
  it('keeps speech that fits', () => {
    const pcm = sine(200, 1000);
    expect(fitToSlot(pcm, 2000)).toEqual({ pcm, speedup: 1, trimmed: false });
  });

  it('speeds up speech that is up to 1.5x too long, without trimming', () => {
    const fitted = fitToSlot(sine(200, 14_400), 10_000);
    expect(fitted.trimmed).toBe(false);
    expect(fitted.speedup).toBeCloseTo(1.44, 2);
    expect(fitted.pcm.length).toBe(10_000);
  });

  it('trims with a fade what is still too long after the largest speed-up', () => {
    const fitted = fitToSlot(sine(200, 48_000), 10_000);
    expect(fitted).toMatchObject({ speedup: MAX_SPEEDUP, trimmed: true });
    expect(fitted.pcm.length).toBe(10_000);
    expect(fitted.pcm.at(-1)).toBe(0);
  });
});
