import { describe, expect, it } from 'vitest';
import { createAudioEncoder } from '../../../src/audio/encoder.js';
import { opusPacketSamples48k } from '../../../src/audio/opus-stream.js';
import { planFormat, type AudioSink } from '../../../src/audio/planner.js';
import { parseWavHeader } from '../../../src/audio/wav.js';
import { InvalidArgumentError } from '../../../src/errors.js';
import { collect, tone } from './signals.js';

/** What the reference service sends for a plan's request: 0.5 s of a tone, in 100 ms chunks. */
async function* serviceOutput(format: Parameters<typeof createAudioEncoder>[0]['format'], sampleRate: number): AsyncIterable<Uint8Array> {
  const encoder = createAudioEncoder({ format, sampleRate });
  const pcm = tone(440, 48000, 24000, 8000);
  for (let i = 0; i < pcm.length; i += 4800) yield* encoder.encode(pcm.subarray(i, i + 4800));
  yield* encoder.flush();
}

async function runPlan(sink: AudioSink): Promise<{ plan: ReturnType<typeof planFormat>; units: Uint8Array[] }> {
  const plan = planFormat(sink);
  const units = await collect(plan.adapter()(serviceOutput(plan.request.format, plan.request.sampleRate)));
  return { plan, units };
}

describe('planFormat', () => {
  it('Twilio: the service sends mu-law 8 kHz; the client only frames it into 160 bytes', async () => {
    const { plan, units } = await runPlan({ kind: 'twilio' });
    expect(plan.request).toEqual({ format: 'mulaw', sampleRate: 8000 });
    expect(plan.steps).toHaveLength(1);
    expect(units.map((u) => u.length)).toEqual(Array(25).fill(160));
  });

  it('Discord/WebRTC: the service encodes Opus 48 kHz; the client lifts 20 ms packets out of Ogg', async () => {
    const { plan, units } = await runPlan({ kind: 'opus' });
    expect(plan.request).toEqual({ format: 'opus', sampleRate: 48000 });
    expect(units.length).toBeGreaterThanOrEqual(25);
    expect(units.every((p) => opusPacketSamples48k(p) === 960)).toBe(true);
  });

  it('Opus encoded locally: PCM 48 kHz requested, packets made here', async () => {
    const { plan, units } = await runPlan({ kind: 'opus', encodeLocally: true });
    expect(plan.request).toEqual({ format: 's16le', sampleRate: 48000 });
    expect(units).toHaveLength(25);
  });

  it('raw s16le at a service rate: nothing to do on the client', async () => {
    const { plan, units } = await runPlan({ kind: 'pcm', sampleRate: 16000 });
    expect(plan.request).toEqual({ format: 's16le', sampleRate: 16000 });
    expect(plan.steps).toEqual([]);
    expect(Buffer.concat(units).length).toBe(16000);
  });

  it('raw s16le at a rate the service lacks: the next higher rate, resampled here, framed', async () => {
    const { plan, units } = await runPlan({ kind: 'pcm', sampleRate: 11025, frameMs: 20 });
    expect(plan.request).toEqual({ format: 's16le', sampleRate: 16000 });
    expect(plan.steps).toContain('resample 16000 → 11025 Hz');
    expect(units.every((u) => u.length === 441)).toBe(true);
    expect(units).toHaveLength(Math.ceil((Math.ceil((8000 * 11025) / 16000) * 2) / 441)); // 8000 samples at 16 kHz → 5513 at 11.025 kHz
  });

  it('WAV file: PCM requested, one header written here', async () => {
    const { plan, units } = await runPlan({ kind: 'file', container: 'wav', sampleRate: 24000 });
    expect(plan.request).toEqual({ format: 's16le', sampleRate: 24000 });
    const file = Buffer.concat(units);
    expect(parseWavHeader(file)).toMatchObject({ sampleRate: 24000, dataOffset: 44 });
    expect(file.length).toBe(44 + 24000);
  });

  it('MP3 and Ogg files come from the service as they are', () => {
    expect(planFormat({ kind: 'file', container: 'mp3', sampleRate: 44100 })).toMatchObject({ request: { format: 'mp3', sampleRate: 44100 }, steps: [] });
    expect(planFormat({ kind: 'file', container: 'ogg' })).toMatchObject({ request: { format: 'opus', sampleRate: 48000 }, steps: [] });
  });

  it('refuses a frame duration that is not whole samples and a bad rate', () => {
    expect(() => planFormat({ kind: 'pcm', sampleRate: 22050, frameMs: 1 })).toThrow(InvalidArgumentError);
    expect(() => planFormat({ kind: 'pcm', sampleRate: -1 })).toThrow(InvalidArgumentError);
  });
});
