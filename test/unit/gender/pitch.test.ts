import { describe, expect, it } from 'vitest';
import { classifyGender, GENDER_BOUNDARY_HZ } from '../../../src/server/gender/classifier.js';
import { median, trackPitch } from '../../../src/server/audio-analysis/pitch-track.js';
import { Yin } from '../../../src/server/audio-analysis/yin.js';
import { syntheticVoice } from './synthetic-voice.js';

function sine(hz: number, rate: number, seconds: number, amplitude = 0.5): Float32Array {
  return Float32Array.from({ length: Math.round(rate * seconds) }, (_, i) => amplitude * Math.sin((2 * Math.PI * hz * i) / rate));
}

function noise(rate: number, seconds: number, seed = 7): Float32Array {
  let s = seed;
  return Float32Array.from({ length: Math.round(rate * seconds) }, () => {
    s = (s * 1_103_515_245 + 12_345) & 0x7fffffff;
    return (s / 0x7fffffff - 0.5) * 0.8;
  });
}

describe('Yin', () => {
  it.each([
    [8000, 97.3],
    [8000, 230],
    [16_000, 61],
    [11_025, 440],
  ])('estimates a %i Hz-sampled %f Hz sine within 0.5 % and calls it periodic', (rate, hz) => {
    const yin = new Yin({ sampleRate: rate });
    const estimate = yin.estimate(sine(hz, rate, 0.1));
    expect(Math.abs(estimate.f0Hz - hz) / hz).toBeLessThan(0.005);
    expect(estimate.aperiodicity).toBeLessThan(0.05);
  });

  it('reports noise as aperiodic', () => {
    const yin = new Yin({ sampleRate: 8000 });
    expect(yin.estimate(noise(8000, 0.1)).aperiodicity).toBeGreaterThan(0.3);
  });

  it('reads a frame at an offset and sizes frames to two periods of the lowest pitch', () => {
    const yin = new Yin({ sampleRate: 8000, minHz: 80 });
    expect(yin.frameLength).toBe(200);
    const x = new Float32Array(1000);
    x.set(sine(150, 8000, 0.05), 500);
    expect(yin.estimate(x, 500).f0Hz).toBeCloseTo(150, 0);
  });
});

describe('trackPitch', () => {
  it.each([
    [85, 16_000],
    [115, 22_050],
    [150, 44_100],
    [205, 48_000],
    [260, 8000],
  ])('finds the median F0 of a %f Hz synthetic voice at %i Hz within 2 %', (f0, rate) => {
    const track = trackPitch(syntheticVoice({ f0Hz: f0, sampleRate: rate, formantScale: f0 > 160 ? 1.17 : 1 }), rate);
    expect(Math.abs((track.medianF0Hz ?? 0) - f0) / f0).toBeLessThan(0.02);
    expect(track.voicedSeconds).toBeGreaterThan(1);
    expect(track.voicedF0Hz.length).toBeLessThanOrEqual(track.frames);
  });

  it('finds no voiced frames in digital silence, and says the peak is -Infinity', () => {
    const track = trackPitch(new Float32Array(16_000), 16_000);
    expect(track.medianF0Hz).toBeUndefined();
    expect(track.voicedF0Hz).toEqual([]);
    expect(track.peakFrameDbfs).toBe(-Infinity);
  });

  it('finds (almost) no voiced frames in white noise', () => {
    const track = trackPitch(noise(16_000, 2), 16_000);
    expect(track.voicedSeconds).toBeLessThan(0.1);
  });

  it('ignores a quiet periodic hum far below the speech level (energy gate)', () => {
    const voice = syntheticVoice({ f0Hz: 210, sampleRate: 16_000, formantScale: 1.17 });
    const hum = sine(60, 16_000, 2, 0.001);
    const mixed = voice.map((v, i) => v + (hum[i] ?? 0));
    expect(trackPitch(mixed, 16_000).medianF0Hz).toBeGreaterThan(200);
  });

  it('median takes the middle value, or the mean of the middle two', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBeUndefined();
  });
});

describe('classifyGender', () => {
  it('is undecided at the boundary and monotonic in F0', () => {
    expect(classifyGender(GENDER_BOUNDARY_HZ, 5)).toMatchObject({ confidence: 0.5, prediction: { female: 0.5, male: 0.5 } });
    let last = 0;
    for (let f0 = 70; f0 <= 320; f0 += 10) {
      const female = classifyGender(f0, 5).prediction.female;
      expect(female).toBeGreaterThan(last);
      last = female;
    }
  });

  it('calls typical male and female pitches with high confidence, scores summing to 1', () => {
    const male = classifyGender(110, 2);
    expect(male.predicted_gender).toBe('male');
    expect(male.confidence).toBeGreaterThan(0.9);
    const female = classifyGender(215, 2);
    expect(female.predicted_gender).toBe('female');
    expect(female.confidence).toBeGreaterThan(0.9);
    expect(female.prediction.female + female.prediction.male).toBeCloseTo(1, 10);
    expect(female.confidence).toBe(female.prediction.female);
  });

  it('gives 0.9 at 1.3x the boundary pitch', () => {
    expect(classifyGender(GENDER_BOUNDARY_HZ * 1.3, 5).prediction.female).toBeCloseTo(0.9, 3);
    expect(classifyGender(GENDER_BOUNDARY_HZ / 1.3, 5).prediction.male).toBeCloseTo(0.9, 3);
  });

  it('is less confident when there is little voiced speech', () => {
    expect(classifyGender(110, 0.1).confidence).toBeLessThan(classifyGender(110, 1).confidence);
    expect(classifyGender(110, 0.1).predicted_gender).toBe('male');
  });
});
