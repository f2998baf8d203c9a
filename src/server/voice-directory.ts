/**
 * Voice directory over the configured voices: a voice prompt id resolves to a base voice, or to one of its
 * emotions. The voices area wraps this to add each account's uploaded voice prompts.
 */
import type { ServiceConfig, VoiceConfig } from './config.js';
import type { ResolvedVoice, VoiceDirectory } from './context.js';
import type { VoiceProfile } from './speech/synth/synthesizer.js';

/** Resolves the built-in (configured) voices and their emotion prompts. */
export class ConfigVoiceDirectory implements VoiceDirectory {
  readonly #byId = new Map<string, ResolvedVoice>();

  constructor(config: ServiceConfig) {
    for (const v of config.voices) {
      const voice = profileOf(v);
      const emotions = v.emotions.map((e) => ({ ...e }));
      this.#byId.set(v.voicePromptId, { voice, emotions });
      for (const e of emotions) this.#byId.set(e.voicePromptId, { voice, emotion: e, emotions });
    }
  }

  resolve(_accountId: string, voicePromptId: string): ResolvedVoice | undefined {
    return this.#byId.get(voicePromptId);
  }
}

function profileOf(v: VoiceConfig): VoiceProfile {
  return {
    voicePromptId: v.voicePromptId,
    pitchHz: v.pitchHz,
    gender: v.gender,
    locale: v.locale,
    wordsPerMinute: v.wordsPerMinute,
    espeakVariant: v.espeakVariant,
  };
}
