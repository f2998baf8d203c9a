import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../../src/logger.js';
import { trackPitch } from '../../../src/server/audio-analysis/pitch-track.js';
import { createEspeakSynthesizer, espeakPitchFor, espeakVoiceFor } from '../../../src/server/speech/synth/espeak.js';
import { createSynthesizer } from '../../../src/server/speech/synth/index.js';
import type { VoiceProfile } from '../../../src/server/speech/synth/synthesizer.js';

const voice = (pitchHz: number, espeakVariant: string): VoiceProfile => ({ voicePromptId: 'v', pitchHz, gender: espeakVariant.startsWith('f') ? 'FEMALE' : 'MALE', locale: 'en-US', wordsPerMinute: 170, espeakVariant });

describe('espeak-ng engine', () => {
  it('maps locales and pitch to espeak parameters', () => {
    expect(espeakVoiceFor('en-US')).toBe('en-us');
    expect(espeakVoiceFor('es-MX')).toBe('es-419');
    expect(espeakVoiceFor('he-IL')).toBe('he');
    expect(espeakVoiceFor('zh-CN')).toBe('cmn');
    expect(espeakVoiceFor('xx-YY')).toBe('en-us');
    expect(espeakPitchFor(100, 'm3')).toBe(50);
    expect(espeakPitchFor(200, 'f3')).toBe(50);
    expect(espeakPitchFor(133, 'm3')).toBe(80);
  });

  it('speaks real, non-silent 48 kHz audio whose pitch follows the voice, in several languages', async () => {
    const engine = await createEspeakSynthesizer(silentLogger());
    const render = async (text: string, locale: string, v: VoiceProfile): Promise<Float32Array> => {
      const blocks: Int16Array[] = [];
      for await (const b of engine.synthesize({ text, locale, voice: v })) blocks.push(b);
      const out = new Float32Array(blocks.reduce((n, b) => n + b.length, 0));
      let at = 0;
      for (const b of blocks) for (const s of b) out[at++] = s / 32768;
      return out;
    };
    const male = await render('Hello there, this is a test of the speech engine.', 'en-US', voice(115, 'm3'));
    const female = await render('Hello there, this is a test of the speech engine.', 'en-US', voice(210, 'f3'));
    for (const pcm of [male, female]) {
      expect(pcm.length / 48_000).toBeGreaterThan(1.5);
      expect(pcm.length / 48_000).toBeLessThan(6);
    }
    const f0m = trackPitch(male, 48_000).medianF0Hz ?? 0;
    const f0f = trackPitch(female, 48_000).medianF0Hz ?? 0;
    expect(f0m).toBeGreaterThan(90);
    expect(f0m).toBeLessThan(145);
    expect(f0f).toBeGreaterThan(170);
    expect(f0f).toBeLessThan(260);
    for (const [text, locale] of [['Hola, ¿cómo estás?', 'es-ES'], ['שלום, מה שלומך?', 'he-IL']] as const) {
      const pcm = await render(text, locale, voice(115, 'm3'));
      expect(pcm.length).toBeGreaterThan(24_000);
      expect(Math.max(...pcm.map(Math.abs))).toBeGreaterThan(0.05);
    }
  }, 60_000);

  it('is what the auto engine picks when the package is installed', async () => {
    expect((await createSynthesizer('auto', silentLogger())).name).toBe('espeak-ng');
    expect((await createSynthesizer('builtin', silentLogger())).name).toBe('builtin');
  });
});
