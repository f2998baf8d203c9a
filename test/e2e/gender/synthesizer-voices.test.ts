import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GenderClient } from '../../../src/client/gender.js';
import { silentLogger } from '../../../src/logger.js';
import type { RunningServer } from '../../../src/server/app.js';
import { DEFAULT_SERVICE_CONFIG } from '../../../src/server/config.js';
import { createSynthesizer } from '../../../src/server/speech/synth/index.js';
import { SYNTH_SAMPLE_RATE, type Synthesizer, type VoiceProfile } from '../../../src/server/speech/synth/synthesizer.js';
import { startTestServer, TEST_API_KEY } from '../../helpers/server.js';
import { wavBytes } from '../../unit/gender/wav-fixture.js';

const TEXT = 'Good morning. This is a short sentence spoken for the gender classifier.';

/** Synthesizes `TEXT` with a configured voice and returns it as a 48 kHz WAV file. */
async function speakWav(synthesizer: Synthesizer, voicePromptId: string): Promise<Uint8Array> {
  const v = DEFAULT_SERVICE_CONFIG.voices.find((x) => x.voicePromptId === voicePromptId);
  if (!v) throw new Error(`no configured voice ${voicePromptId}`);
  const voice: VoiceProfile = { voicePromptId, pitchHz: v.pitchHz, gender: v.gender, locale: v.locale, wordsPerMinute: v.wordsPerMinute, espeakVariant: v.espeakVariant };
  const blocks: Int16Array[] = [];
  for await (const block of synthesizer.synthesize({ text: TEXT, locale: v.locale, voice })) blocks.push(block);
  const samples = new Float32Array(blocks.reduce((n, b) => n + b.length, 0));
  let at = 0;
  for (const b of blocks) for (const s of b) samples[at++] = s / 32768;
  return wavBytes([samples], { sampleRate: SYNTH_SAMPLE_RATE });
}

/** The configured voices: two male (115 Hz, 125 Hz) and two female (210 Hz, 200 Hz). */
const VOICES = DEFAULT_SERVICE_CONFIG.voices.map((v) => [v.name, v.voicePromptId, v.gender === 'MALE' ? 'male' : 'female'] as const);

describe('classification of the reference synthesizers’ voices', () => {
  let server: RunningServer;
  let client: GenderClient;
  const engines: Array<[string, Synthesizer]> = [];
  beforeAll(async () => {
    server = await startTestServer();
    client = new GenderClient({ baseUrl: server.url, apiKey: TEST_API_KEY, maxRetries: 0 });
    engines.push(['builtin', server.context.synthesizer]);
    engines.push(['espeak', await createSynthesizer('espeak', silentLogger())]);
  });
  afterAll(async () => {
    for (const [, engine] of engines) if (engine !== server.context.synthesizer) await engine?.close?.();
    await server.close();
  });

  for (const engineName of ['builtin', 'espeak']) {
    for (const [name, voicePromptId, gender] of VOICES) {
      it(`${engineName}: ${name} is classified as ${gender}`, async () => {
        const engine = engines.find(([n]) => n === engineName)?.[1];
        if (!engine) throw new Error(`no ${engineName} engine`);
        const result = await client.classify({ audio: await speakWav(engine, voicePromptId) });
        expect(result.predicted_gender).toBe(gender);
        expect(result.confidence).toBeGreaterThan(0.75);
      });
    }
  }
});
