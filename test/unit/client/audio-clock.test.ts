import { describe, expect, it } from 'vitest';
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

  it('leaves compressed formats unmeasured, and unknown formats fall back to wav', () => {
    const mp3 = new AudioClock({ format: 'mp3' });
    mp3.add(new Uint8Array(1000));
    expect(mp3.ms).toBeUndefined();
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
