import { describe, expect, it } from 'vitest';
import { median, trackPitch } from '../../../src/server/audio-analysis/pitch-track.js';
import { BuiltinSynthesizer, predictDurationSamples } from '../../../src/server/speech/synth/builtin.js';
import type { SynthesisRequest, VoiceProfile } from '../../../src/server/speech/synth/synthesizer.js';

const voice = (pitchHz: number): VoiceProfile => ({ voicePromptId: `v${pitchHz}`, pitchHz, gender: pitchHz > 160 ? 'FEMALE' : 'MALE', locale: 'en-US', wordsPerMinute: 170, espeakVariant: 'm3' });
const TEXT = 'Hello there, this is a test of the synthesizer. It speaks slowly and clearly.';

async function render(request: SynthesisRequest): Promise<{ pcm: Int16Array; blocks: number }> {
  const blocks: Int16Array[] = [];
  for await (const b of new BuiltinSynthesizer().synthesize(request)) blocks.push(b);
  const pcm = new Int16Array(blocks.reduce((n, b) => n + b.length, 0));
  let at = 0;
  for (const b of blocks) {
    pcm.set(b, at);
    at += b.length;
  }
  return { pcm, blocks: blocks.length };
}
const f0 = (pcm: Int16Array): number => trackPitch(Float32Array.from(pcm, (s) => s / 32768), 48_000).medianF0Hz ?? 0;

describe('BuiltinSynthesizer', () => {
  it('is deterministic: same request, same bytes', async () => {
    const a = await render({ text: TEXT, locale: 'en-US', voice: voice(120) });
    const b = await render({ text: TEXT, locale: 'en-US', voice: voice(120) });
    expect(Buffer.from(a.pcm.buffer).equals(Buffer.from(b.pcm.buffer))).toBe(true);
    const other = await render({ text: `${TEXT}!`, locale: 'en-US', voice: voice(120) });
    expect(other.pcm.length).not.toBe(a.pcm.length);
  });

  it('produces the documented duration, streamed in several blocks', async () => {
    const request = { text: TEXT, locale: 'en-US', voice: voice(120) };
    const { pcm, blocks } = await render(request);
    expect(pcm.length).toBe(predictDurationSamples(request));
    // 78 characters at 170 wpm (~59 ms each) plus pauses: about 5 seconds of speech.
    expect(pcm.length / 48_000).toBeGreaterThan(4);
    expect(pcm.length / 48_000).toBeLessThan(7);
    expect(blocks).toBeGreaterThan(10);
    const slow = { ...request, emotion: { name: 'sad', pitchScale: 1, rateScale: 0.5, gain: 1 } };
    expect(predictDurationSamples(slow)).toBeGreaterThan(1.9 * pcm.length);
  });

  it("speaks at the voice's pitch and follows the emotion's pitch scale", async () => {
    const male = f0((await render({ text: TEXT, locale: 'en-US', voice: voice(115) })).pcm);
    const female = f0((await render({ text: TEXT, locale: 'en-US', voice: voice(210) })).pcm);
    expect(male).toBeGreaterThan(115 * 0.9);
    expect(male).toBeLessThan(115 * 1.1);
    expect(female).toBeGreaterThan(210 * 0.9);
    expect(female).toBeLessThan(210 * 1.1);
    const happy = f0((await render({ text: TEXT, locale: 'en-US', voice: voice(115), emotion: { name: 'happy', pitchScale: 1.3, rateScale: 1, gain: 1 } })).pcm);
    expect(happy / male).toBeGreaterThan(1.2);
    expect(median([happy])).toBe(happy);
  });

  it('is audible speech-like signal, not silence, in any script', async () => {
    const { pcm } = await render({ text: 'שלום עולם', locale: 'he-IL', voice: voice(200) });
    let peak = 0;
    for (const s of pcm) peak = Math.max(peak, Math.abs(s));
    expect(peak).toBeGreaterThan(3000);
  });

  it('yields nothing for whitespace and stops within a block when aborted', async () => {
    expect((await render({ text: '   \n', locale: 'en-US', voice: voice(120) })).pcm.length).toBe(0);
    const controller = new AbortController();
    const blocks: Int16Array[] = [];
    for await (const b of new BuiltinSynthesizer().synthesize({ text: TEXT, locale: 'en-US', voice: voice(120), signal: controller.signal })) {
      blocks.push(b);
      if (blocks.length === 2) controller.abort();
    }
    expect(blocks.length).toBe(2);
  });
});
