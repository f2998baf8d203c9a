/**
 * Checks of an inline `voicePrompt` (base64 WAV, at most 1 MB, mono, 48 kHz) in the spec's order, with the
 * spec's messages, and the voice it yields: the recording's measured pitch drives the synthesizer.
 */
import { InvalidAudioError } from '../../errors.js';
import { parseWavHeader, WavFormatError } from '../../audio/wav.js';
import { SPEECH_ERRORS, VOICE_PROMPT_MAX_BYTES, VOICE_PROMPT_SAMPLE_RATE } from '../../protocol/speech.js';
import { decodeBase64Strict } from '../audio-analysis/base64.js';
import { decodeWav } from '../audio-analysis/wav-decode.js';
import { trackPitch } from '../audio-analysis/pitch-track.js';
import { GENDER_BOUNDARY_HZ } from '../gender/classifier.js';
import type { VoiceProfile } from './synth/synthesizer.js';

/** Outcome of {@link checkVoicePrompt}: the voice, or the session error text. */
export type VoicePromptCheck = { ok: true; voice: VoiceProfile } | { ok: false; error: string };

/** Validates an inline voice prompt and derives its voice. */
export function checkVoicePrompt(base64: string): VoicePromptCheck {
  const compact = base64.replace(/\s+/g, '');
  // Size first (as the spec lists it), from the base64 length, so an oversized prompt is never decoded.
  const decodedBytes = Math.floor((compact.length * 3) / 4) - (/=+$/.exec(compact)?.[0].length ?? 0);
  if (decodedBytes > VOICE_PROMPT_MAX_BYTES) return { ok: false, error: SPEECH_ERRORS.voicePromptTooLarge };
  let bytes: Uint8Array;
  try {
    bytes = decodeBase64Strict(compact);
  } catch (error) {
    return { ok: false, error: SPEECH_ERRORS.voicePromptNotBase64((error as Error).message) };
  }
  let header;
  try {
    header = parseWavHeader(bytes);
  } catch (error) {
    return { ok: false, error: SPEECH_ERRORS.voicePromptNotWav(error instanceof WavFormatError ? error.detail : (error as Error).message) };
  }
  if (header.channels !== 1) return { ok: false, error: SPEECH_ERRORS.voicePromptNotMono(header.channels) };
  if (header.sampleRate !== VOICE_PROMPT_SAMPLE_RATE) return { ok: false, error: SPEECH_ERRORS.voicePromptWrongRate(header.sampleRate) };
  let pitchHz: number | undefined;
  try {
    const pcm = decodeWav(bytes);
    pitchHz = trackPitch(pcm.channelData[0] ?? new Float32Array(0), pcm.sampleRate).medianF0Hz;
  } catch (error) {
    if (!(error instanceof InvalidAudioError)) throw error;
    return { ok: false, error: SPEECH_ERRORS.voicePromptNotWav(error.message) };
  }
  const pitch = pitchHz ?? 150;
  const female = pitch >= GENDER_BOUNDARY_HZ;
  return {
    ok: true,
    voice: { voicePromptId: 'inline', pitchHz: pitch, gender: female ? 'FEMALE' : 'MALE', locale: 'en-US', wordsPerMinute: 170, espeakVariant: female ? 'f3' : 'm3' },
  };
}
