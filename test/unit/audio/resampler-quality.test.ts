/**
 * Resampler quality, measured rather than assumed: pass-band flatness, alias rejection (tones above the
 * output Nyquist frequency, measured at the frequency they would fold to), image rejection when upsampling,
 * and absence of drift over ten minutes of 20 ms chunks.
 */
import { describe, expect, it } from 'vitest';
import { createResampler, RESAMPLER_PASSBAND } from '../../../src/audio/resampler.js';
import { concatInt16, db, tone, toneAmplitude } from './signals.js';

const AMPLITUDE = 16000;

/** Resamples a 0.2 s tone in 20 ms chunks and returns the steady middle of the output. */
function through(from: number, to: number, hz: number): Int16Array {
  const resampler = createResampler(from, to);
  const input = tone(hz, from, Math.round(from * 0.2), AMPLITUDE, 0.3);
  const parts: Int16Array[] = [];
  for (let i = 0; i < input.length; i += from / 50) parts.push(resampler.process(input.subarray(i, i + from / 50)));
  parts.push(resampler.flush());
  const out = concatInt16(parts);
  return out.subarray(Math.round(to * 0.03), Math.round(to * 0.17));
}

/** Where a tone at `hz` lands after sampling at `rate`. */
function folded(hz: number, rate: number): number {
  const f = hz % rate;
  return f > rate / 2 ? rate - f : f;
}

const DOWN = [
  [48000, 8000],
  [48000, 16000],
  [48000, 22050],
  [48000, 24000],
  [48000, 36000],
  [44100, 8000],
  [32000, 8000],
] as const;

describe.each(DOWN)('%i → %i Hz', (from, to) => {
  const nyquist = to / 2;

  it('pass band (to 85 % of the output Nyquist frequency) flat within ±0.02 dB', () => {
    for (let i = 0; i <= 12; i++) {
      const hz = 100 + ((RESAMPLER_PASSBAND * nyquist - 100) * i) / 12;
      const gain = db(toneAmplitude(through(from, to, hz), hz, to), AMPLITUDE);
      expect(Math.abs(gain), `${hz.toFixed(0)} Hz`).toBeLessThan(0.02);
    }
  });

  it('rejects every tone above the output Nyquist frequency by at least 70 dB', () => {
    const steps = 24;
    for (let i = 0; i <= steps; i++) {
      const hz = nyquist + 10 + ((from / 2 - nyquist - 20) * i) / steps;
      const alias = folded(hz, to);
      if (alias < 20 || alias > nyquist - 20) continue; // lands on DC or Nyquist, where Goertzel cannot single it out
      const leak = db(toneAmplitude(through(from, to, hz), alias, to), AMPLITUDE);
      expect(leak, `${hz.toFixed(0)} Hz → ${alias.toFixed(0)} Hz`).toBeLessThan(-70);
    }
  });
});

describe('upsampling', () => {
  it.each([
    [8000, 48000],
    [16000, 48000],
    [22050, 44100],
    [24000, 48000],
  ] as const)('%i → %i Hz: images of pass-band tones rejected by at least 70 dB', (from, to) => {
    for (const hz of [300, 1000, (RESAMPLER_PASSBAND * from) / 2]) {
      const out = through(from, to, hz);
      expect(Math.abs(db(toneAmplitude(out, hz, to), AMPLITUDE))).toBeLessThan(0.02);
      for (let k = 1; k * from - hz < to / 2; k++) {
        for (const image of [k * from - hz, k * from + hz]) {
          if (image >= to / 2) continue;
          expect(db(toneAmplitude(out, image, to), AMPLITUDE), `image at ${image} Hz`).toBeLessThan(-70);
        }
      }
    }
  });
});

describe('ten minutes of 20 ms chunks', () => {
  it.each([
    [48000, 8000],
    [48000, 44100],
  ] as const)('%i → %i Hz: exact sample count and a tone still in phase at the end', (from, to) => {
    const chunk = from / 50;
    const chunks = 10 * 60 * 50;
    const hz = 1000;
    const resampler = createResampler(from, to);
    // 20 ms holds a whole number of 1 kHz periods, so every chunk of the tone is the same block.
    const block = tone(hz, from, chunk, AMPLITUDE);
    let produced = 0;
    let lagMin = Number.POSITIVE_INFINITY;
    let lagMax = Number.NEGATIVE_INFINITY;
    let tail: Int16Array = new Int16Array(0);
    for (let c = 1; c <= chunks; c++) {
      tail = resampler.process(block);
      produced += tail.length;
      const lag = (c * chunk * to) / from - produced;
      lagMin = Math.min(lagMin, lag);
      lagMax = Math.max(lagMax, lag);
    }
    // The output trails the input by the fixed look-ahead after every chunk: nothing accumulates.
    expect(lagMax - lagMin).toBeLessThan(1);
    expect(lagMax).toBeLessThanOrEqual(resampler.latencyFrames + 1);
    // The last samples match the ideal tone at their exact time: no phase drift after 10 minutes.
    const start = produced - tail.length;
    let worst = 0;
    for (let i = 0; i < tail.length; i++) {
      const ideal = AMPLITUDE * Math.sin((2 * Math.PI * hz * (start + i)) / to);
      worst = Math.max(worst, Math.abs((tail[i] as number) - ideal));
    }
    expect(worst).toBeLessThan(AMPLITUDE * 0.001);
    expect(produced + resampler.flush().length).toBe((chunks * chunk * to) / from);
  });
});
