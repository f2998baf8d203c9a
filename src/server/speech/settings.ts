/**
 * Turns a `stream-config` payload into the settings a session speaks with, applying the spec's defaults
 * and checks (model usable by the account, inline voice prompt, voice prompt id, sample rate). A failed
 * check returns the session error text and leaves the previous settings in force.
 */
import {
  defaultSampleRate,
  isSampleRate,
  normalizeFormat,
  SPEECH_ERRORS,
  STREAM_CONFIG_DEFAULTS,
  type AudioFormat,
  type SampleRate,
  type StreamConfig,
} from '../../protocol/speech.js';
import type { AccountConfig, ServiceConfig } from '../config.js';
import type { ResolvedVoice, VoiceDirectory } from '../context.js';
import { emojiKey, TagInterpreter, TagScanner, type EmotionCatalog, type SpokenSegment } from '../../tags/index.js';
import type { VoiceProfile } from './synth/synthesizer.js';
import { checkVoicePrompt } from './voice-prompt.js';

/** Everything a generation needs to know about how to speak. */
export interface SpeechSettings {
  model: string;
  format: AudioFormat;
  sampleRate: SampleRate;
  realtime: boolean;
  cleanAudio: boolean;
  outputDiacritized: boolean;
  enableLogging: boolean;
  firstAudioTimeout: number;
  acceptEmojis: boolean;
  /** Base voice prompt id (from config, or the model's default). */
  voicePromptId: string;
  locale: string | undefined;
  targetGender: string | undefined;
  /** Voice cloned from an inline `voicePrompt`, which replaces `voicePromptId`. */
  inlineVoice: VoiceProfile | undefined;
}

/** Result of {@link resolveSettings}. */
export type SettingsResult = { ok: true; settings: SpeechSettings } | { ok: false; error: string };

/** Whether `account` may use `model` (an account with no model list may use every configured model). */
export function modelAllowed(config: ServiceConfig, account: AccountConfig, model: string): boolean {
  if (!config.models.some((m) => m.id === model)) return false;
  return account.models.length === 0 || account.models.includes(model);
}

/**
 * Resolves `raw` on top of `previous` (a re-sent config keeps what it does not mention, except the model,
 * which every stream-config must carry).
 */
export function resolveSettings(
  raw: StreamConfig,
  previous: SpeechSettings | undefined,
  context: { config: ServiceConfig; account: AccountConfig; voices: VoiceDirectory },
): SettingsResult {
  if (typeof raw.model !== 'string' || raw.model.trim() === '') return { ok: false, error: SPEECH_ERRORS.modelRequired };
  const model = raw.model;
  if (!modelAllowed(context.config, context.account, model)) return { ok: false, error: SPEECH_ERRORS.queueRouteNotFound(model) };
  const format = raw.format !== undefined ? normalizeFormat(raw.format) : (previous?.format ?? STREAM_CONFIG_DEFAULTS.format);
  let sampleRate: SampleRate;
  if (raw.sampleRate !== undefined) {
    if (!isSampleRate(raw.sampleRate)) return { ok: false, error: SPEECH_ERRORS.invalidSampleRate(raw.sampleRate) };
    sampleRate = raw.sampleRate;
  } else {
    sampleRate = raw.format !== undefined || !previous ? defaultSampleRate(format) : previous.sampleRate;
  }
  let inlineVoice = previous?.inlineVoice;
  if (raw.voicePrompt !== undefined) {
    const check = checkVoicePrompt(raw.voicePrompt);
    if (!check.ok) return check;
    inlineVoice = check.voice;
  }
  const modelConfig = context.config.models.find((m) => m.id === model);
  let voicePromptId = previous?.voicePromptId ?? modelConfig?.defaultVoicePromptId ?? '';
  if (raw.voicePromptId !== undefined) {
    if (!context.voices.resolve(context.account.id, raw.voicePromptId)) return { ok: false, error: SPEECH_ERRORS.voiceNotFound(raw.voicePromptId) };
    voicePromptId = raw.voicePromptId;
    if (raw.voicePrompt === undefined) inlineVoice = undefined;
  }
  return {
    ok: true,
    settings: {
      model,
      format,
      sampleRate,
      realtime: raw.realtime ?? previous?.realtime ?? STREAM_CONFIG_DEFAULTS.realtime,
      cleanAudio: raw.cleanAudio ?? previous?.cleanAudio ?? STREAM_CONFIG_DEFAULTS.cleanAudio,
      // Only an explicit true opts in, per message.
      outputDiacritized: raw.outputDiacritized === true,
      // Applies to the whole connection: once off, it stays off.
      enableLogging: (previous?.enableLogging ?? true) && raw.enableLogging !== false,
      firstAudioTimeout: raw.firstAudioTimeout ?? previous?.firstAudioTimeout ?? STREAM_CONFIG_DEFAULTS.firstAudioTimeout,
      acceptEmojis: raw.acceptEmojis ?? previous?.acceptEmojis ?? STREAM_CONFIG_DEFAULTS.acceptEmojis,
      voicePromptId,
      locale: raw.locale ?? previous?.locale,
      targetGender: raw.targetGender ?? previous?.targetGender,
      inlineVoice,
    },
  };
}

/** The voice a segment is spoken with: inline clone, or the directory's entry for `voicePromptId`. */
export function voiceFor(settings: SpeechSettings, voicePromptId: string | undefined, accountId: string, voices: VoiceDirectory): ResolvedVoice | undefined {
  if (settings.inlineVoice && (voicePromptId === undefined || voicePromptId === settings.voicePromptId)) {
    return { voice: settings.inlineVoice, emotions: voices.resolve(accountId, settings.voicePromptId)?.emotions ?? [] };
  }
  return voices.resolve(accountId, voicePromptId ?? settings.voicePromptId);
}

/** The emotion sets of the voices a session may switch to, for the tag interpreter. */
export function emotionCatalog(settings: () => SpeechSettings | undefined, accountId: string, voices: VoiceDirectory): EmotionCatalog {
  const emotionsOf = (voicePromptId: string | undefined) => {
    const s = settings();
    return s ? (voiceFor(s, voicePromptId, accountId, voices)?.emotions ?? []) : [];
  };
  return {
    emotion: (voicePromptId, name) => emotionsOf(voicePromptId).find((e) => e.name.toLowerCase() === name),
    emotionForEmoji: (voicePromptId, emoji) => {
      const key = emojiKey(emoji);
      return emotionsOf(voicePromptId).find((e) => e.emoji.some((x) => emojiKey(x) === key));
    },
  };
}

/** A tag interpreter starting from the session's base voice. */
export function interpreterFor(settings: SpeechSettings, accountId: string, voices: VoiceDirectory, current: () => SpeechSettings | undefined = () => settings): TagInterpreter {
  return new TagInterpreter(
    { locale: settings.locale, voicePromptId: settings.voicePromptId, targetGender: settings.targetGender, emotion: undefined },
    emotionCatalog(current, accountId, voices),
  );
}

/** Scans and interprets a complete text (one-shot requests: `/open`, `POST /api/v1/tts`). */
export function speakText(text: string, settings: SpeechSettings, accountId: string, ctx: { voices: VoiceDirectory }): SpokenSegment[] {
  const scanner = new TagScanner({ acceptEmojis: settings.acceptEmojis });
  return interpreterFor(settings, accountId, ctx.voices).apply([...scanner.push(text), ...scanner.flush()]);
}
