import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseWavHeader, WAV_EXTENSIBLE_HEADER_BYTES } from '../../../src/audio/wav.js';
import { SAMPLE_RATES, type AudioFormat } from '../../../src/protocol/speech.js';
import type { RunningServer } from '../../../src/server/app.js';
import { decodeAudio } from '../../../src/server/audio-analysis/decode.js';
import { predictDurationMs } from '../../../src/server/speech/synth/builtin.js';
import { DEFAULT_SERVICE_CONFIG } from '../../../src/server/config.js';
import { startTestServer } from '../../helpers/server.js';
import { audioBytes, collectTurn, connect, MODEL, type Msg, type RawClient } from './harness.js';

const TEXT = 'Testing every format and rate.';
const voice = DEFAULT_SERVICE_CONFIG.voices[0];
if (!voice) throw new Error('no default voice');
const EXPECTED_MS = predictDurationMs({ text: TEXT, voice: { ...voice, voicePromptId: voice.voicePromptId } });

/** Reads the input-rate field of the OpusHead packet of an Ogg/Opus stream. */
function opusHeadRate(bytes: Buffer): number {
  const at = bytes.indexOf('OpusHead');
  expect(at).toBeGreaterThan(0);
  return bytes.readUInt32LE(at + 12);
}

describe('speech socket: every format at every sample rate', () => {
  let server: RunningServer;
  let c: RawClient;
  beforeAll(async () => {
    server = await startTestServer();
    c = await connect(server);
  });
  afterAll(async () => {
    await c.close();
    await server.close();
  });

  async function turn(format: string, sampleRate?: number): Promise<Msg[]> {
    c.send({ action: 'stream-config', config: { model: MODEL, format, ...(sampleRate ? { sampleRate } : {}), realtime: false } });
    const from = c.messages.length;
    c.send({ action: 'stream-text', text: TEXT });
    c.send({ action: 'end-stream' });
    return collectTurn(c, from);
  }

  const formats: AudioFormat[] = ['wav', 's16le', 'mulaw', 'mp3', 'opus'];
  for (const format of formats) {
    for (const rate of SAMPLE_RATES) {
      it(`${format} at ${rate} Hz decodes to the right rate and duration`, async () => {
        const chunks = (await turn(format, rate)).filter((m) => m.data);
        expect(chunks.length).toBeGreaterThan(0);
        let ms: number;
        if (format === 'wav') {
          // every chunk is a complete WAV file with the 68-byte extensible header
          let samples = 0;
          for (const chunk of chunks) {
            const bytes = Buffer.from(chunk.data as string, 'base64');
            const h = parseWavHeader(bytes);
            expect(h).toMatchObject({ sampleRate: rate, channels: 1, bitsPerSample: 16, extensible: true, dataOffset: WAV_EXTENSIBLE_HEADER_BYTES });
            expect(h.dataBytes).toBe(bytes.length - WAV_EXTENSIBLE_HEADER_BYTES);
            samples += (bytes.length - WAV_EXTENSIBLE_HEADER_BYTES) / 2;
          }
          ms = (samples / rate) * 1000;
        } else if (format === 's16le' || format === 'mulaw') {
          const bytes = audioBytes(chunks);
          ms = (bytes.length / (format === 's16le' ? 2 : 1) / rate) * 1000;
        } else {
          const bytes = audioBytes(chunks);
          const decoded = await decodeAudio(new Uint8Array(bytes));
          ms = decoded.durationSeconds * 1000;
          if (format === 'mp3') expect(decoded.sampleRate).toBe(rate === 36000 ? 44100 : rate);
          else expect(opusHeadRate(bytes)).toBe(rate);
        }
        // PCM formats are exact to a few ms (resampler delay); codecs add priming and padding: up to two MP3
        // frames (576 samples per frame below 32 kHz, 1152 above) or 80 ms of Opus pre-skip and final frame.
        const mp3FrameMs = ((rate < 32000 ? 576 : 1152) / rate) * 1000;
        const tolerance = format === 'mp3' ? 2 * mp3FrameMs + 30 : format === 'opus' ? 80 : 5;
        expect(Math.abs(ms - EXPECTED_MS)).toBeLessThan(tolerance);
      });
    }
  }

  it('defaults: wav at 48 kHz, mulaw at 8 kHz, unknown formats fall back to wav', async () => {
    c.send({ action: 'stream-config', config: { model: MODEL, realtime: false } });
    const wav = (await turn('wav')).find((m) => m.data) as Msg;
    expect(parseWavHeader(Buffer.from(wav.data as string, 'base64')).sampleRate).toBe(48000);
    const flac = (await turn('flac')).find((m) => m.data) as Msg;
    expect(parseWavHeader(Buffer.from(flac.data as string, 'base64')).sampleRate).toBe(48000);
    const mulaw = audioBytes(await turn('mulaw'));
    expect(Math.abs((mulaw.length / 8000) * 1000 - EXPECTED_MS)).toBeLessThan(5);
  });

  it('rejects a sample rate outside the list and keeps the session', async () => {
    const from = c.messages.length;
    c.send({ action: 'stream-config', config: { model: MODEL, sampleRate: 12345 } });
    expect((await c.next((m) => m.action === 'error', from)).message).toBe('sampleRate must be one of 8000, 16000, 22050, 24000, 32000, 36000, 44100, 48000, got 12345');
  });
});
