import { describe, expect, it } from 'vitest';
import { createAudioEncoder } from '../../../src/audio/encoder.js';
import { encodeWav, encodeWavHeader } from '../../../src/audio/wav.js';
import { AudioClock } from '../../../src/client/speech/audio-clock.js';
import { decodeBase64Strict } from '../../../src/client/speech/audio-chunk.js';

describe('AudioClock', () => {
  it('counts s16le and mulaw bytes at the configured or default rate', () => {
    const s16 = new AudioClock({ format: 's16le', sampleRate: 16000 });
    s16.add(new Uint8Array(3200));
    expect(s16.ms).toBe(100);
    const mulaw = new AudioClock({ format: 'mulaw' });
    mulaw.add(new Uint8Array(160));
    expect(mulaw.ms).toBe(20);
  });

  it('strips a 68-byte header on every wav chunk, and copes with one header then bare chunks', () => {
    const perChunk = new AudioClock({ format: 'wav', sampleRate: 24000 });
    for (let i = 0; i < 3; i++) expect(perChunk.add(encodeWav(new Int16Array(480), 24000, 1, { extensible: true }))).toBe(20);
    expect(perChunk.ms).toBe(60);
    const once = new AudioClock({ format: 'wav' });
    once.add(Buffer.concat([encodeWavHeader(0xffffffff, 8000), Buffer.alloc(1600)]));
    once.add(Buffer.alloc(1600));
    expect(once.ms).toBe(200);
  });

  it('measures mp3 and Ogg Opus from their framing, fed one byte at a time, one stream per generation', () => {
    for (const format of ['mp3', 'opus'] as const) {
      for (const rate of [16000, 24000, 48000]) {
        const encoder = createAudioEncoder({ format, sampleRate: rate });
        const bytes: Buffer[] = [];
        for (let generation = 0; generation < 2; generation++) {
          for (let i = 0; i < 25; i++) bytes.push(...encoder.encode(new Int16Array(960).map((_, j) => Math.round(8000 * Math.sin(j / 7)))));
          bytes.push(...encoder.flush());
        }
        const clock = new AudioClock({ format, sampleRate: rate });
        for (const byte of Buffer.concat(bytes)) clock.add(Uint8Array.of(byte));
        // 2 × 500 ms of input; mp3 pads to whole frames and adds encoder delay, Opus is exact.
        if (format === 'opus') expect(clock.ms).toBeCloseTo(1000, 0);
        else expect(clock.ms).toBeGreaterThanOrEqual(1000);
        expect(clock.ms).toBeLessThan(1200);
      }
    }
  });

  it('treats unknown formats as wav', () => {
    expect(new AudioClock({ format: 'flac' }).format).toBe('wav');
  });
});

describe('decodeBase64Strict', () => {
  it('decodes padded and unpadded base64 and refuses what Node would silently skip', () => {
    expect(decodeBase64Strict('AQID')).toEqual(Buffer.from([1, 2, 3]));
    expect(decodeBase64Strict('AQI=')).toEqual(Buffer.from([1, 2]));
    expect(decodeBase64Strict('AQ')).toEqual(Buffer.from([1]));
    expect(decodeBase64Strict('')).toEqual(Buffer.alloc(0));
    for (const bad of ['!!!!', 'AQ I=', 'A', 'AQID\n', 'AQ*D']) expect(decodeBase64Strict(bad)).toBeUndefined();
  });
});
