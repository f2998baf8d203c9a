/**
 * The server's voice directory once the voice bank is registered: configured voices (and their emotion
 * prompts) first, then the account's uploaded voice prompts, which speak with the pitch measured at upload.
 */
import type { ResolvedVoice, VoiceDirectory } from '../context.js';
import { GENDER_BOUNDARY_HZ } from '../gender/classifier.js';
import type { VoiceProfile } from '../speech/synth/synthesizer.js';
import type { StoredVoicePrompt, VoicePromptStore } from './store.js';

/** Words per minute of uploaded voices (the configured voices' default). */
const UPLOADED_WORDS_PER_MINUTE = 170;

/** espeak-ng variant for a stored prompt: by gender, and by measured pitch for NON_BINARY. */
export function espeakVariantFor(prompt: Pick<StoredVoicePrompt, 'gender' | 'pitchHz'>): string {
  if (prompt.gender === 'FEMALE') return 'f3';
  if (prompt.gender === 'MALE') return 'm3';
  return prompt.pitchHz >= GENDER_BOUNDARY_HZ ? 'f2' : 'm2';
}

/** The synthesizer's view of an uploaded voice prompt. */
export function profileOfPrompt(prompt: StoredVoicePrompt): VoiceProfile {
  return {
    voicePromptId: prompt.id,
    pitchHz: prompt.pitchHz,
    gender: prompt.gender,
    locale: prompt.locale,
    wordsPerMinute: UPLOADED_WORDS_PER_MINUTE,
    espeakVariant: espeakVariantFor(prompt),
  };
}

/** Configured voices first, then the account's voice bank (uploaded prompts have no emotion set). */
export class VoiceBankDirectory implements VoiceDirectory {
  readonly #configured: VoiceDirectory;
  readonly #store: VoicePromptStore;

  constructor(configured: VoiceDirectory, store: VoicePromptStore) {
    this.#configured = configured;
    this.#store = store;
  }

  resolve(accountId: string, voicePromptId: string): ResolvedVoice | undefined {
    const configured = this.#configured.resolve(accountId, voicePromptId);
    if (configured) return configured;
    const prompt = this.#store.get(accountId, voicePromptId);
    return prompt && { voice: profileOfPrompt(prompt), emotions: [] };
  }
}
