/**
 * The live enum tables as served by `/live/enums/*`, and validation of a config against exactly those tables.
 * Problems come back in the provider-style shape carried by a 422's `upstream` field.
 */
import {
  LIVE_BUILD_VERSIONS,
  LIVE_INPUT_STREAM_TYPES,
  LIVE_OUTPUT_COMPATIBILITY,
  LIVE_OWN_TTS_ENGINE,
  LIVE_PULL_INPUT_SCHEMES,
  LIVE_PUSH_OUTPUT_SCHEMES,
  LIVE_TRANSLATION_LANGUAGES,
  LIVE_TTS_ENGINES,
  type LiveInputStreamType,
  type LiveServiceConfig,
  type LiveThirdPartyVoice,
  type LiveUpstreamError,
  type LiveVoicesResponse,
} from '../../protocol/live.js';
import type { AccountConfig, VoiceConfig } from '../config.js';

/** Name of the orchestration provider in `upstream` errors. */
export const LIVE_PROVIDER = 'voxpipe-live-orchestrator';

const THIRD_PARTY_VOICES: Record<string, Array<{ id: string; name: string }>> = {
  elevenlabs: [
    { id: '21m00Tcm4TlvDq8ikWAM', name: 'Rachel' },
    { id: 'ErXwobaYiN019PkySvjV', name: 'Antoni' },
  ],
  azure: [
    { id: 'Neural-A', name: 'Neural A' },
    { id: 'Neural-B', name: 'Neural B' },
  ],
};

/** Whether `engine` exists and the account may use it (third-party engines need feature `live-tts:<id>`). */
export function engineEnabled(account: AccountConfig, engine: string): boolean {
  const found = LIVE_TTS_ENGINES.find((e) => e.id === engine);
  return found !== undefined && (!found.thirdParty || account.features.includes(`live-tts:${engine}`));
}

/** Output types compatible with `input`, or undefined for an unknown input type. */
export function compatibleOutputs(input: string): readonly string[] | undefined {
  return (LIVE_INPUT_STREAM_TYPES as readonly string[]).includes(input) ? LIVE_OUTPUT_COMPATIBILITY[input as LiveInputStreamType] : undefined;
}

const languageOf = (tag: string): string => tag.toLowerCase().split('-')[0] ?? '';

/** Voices of `engine` for `language`; undefined for an unknown engine or language. */
export function voicesFor(voices: readonly VoiceConfig[], language: string, engine: string): LiveVoicesResponse | undefined {
  if (!(LIVE_TRANSLATION_LANGUAGES as readonly string[]).includes(language)) return undefined;
  if (engine === LIVE_OWN_TTS_ENGINE) {
    const items = voices
      .filter((v) => languageOf(v.locale) === languageOf(language))
      .map((v) => ({ voicePromptId: v.voicePromptId, name: v.name, gender: v.gender, locale: v.locale }));
    return { items };
  }
  const table = THIRD_PARTY_VOICES[engine];
  if (!table) return undefined;
  const list: LiveThirdPartyVoice[] = table.map((v) => ({ voice_id: `${language}-${v.id}`, display_name: v.name, language }));
  return { voices: list };
}

/** Whether a stream type that takes a URL of `schemes` lacks it (`MISSING`) or has another scheme (`INVALID`). */
function urlProblem(url: string | undefined, schemes: readonly string[] | undefined): 'MISSING' | 'INVALID' | undefined {
  if (!schemes) return undefined;
  if (!url) return 'MISSING';
  return schemes.includes(new URL(url).protocol) ? undefined : 'INVALID';
}

const schemesOf = (type: string, table: Readonly<Record<string, readonly string[] | undefined>>): string =>
  (table[type] ?? []).map((s) => `${s}//`).join(' or ');

/** Checks `config` against the enum tables; undefined when valid, else the provider's error. */
export function validateAgainstEnums(config: LiveServiceConfig, account: AccountConfig, voices: readonly VoiceConfig[]): LiveUpstreamError | undefined {
  const errors: LiveUpstreamError['errors'] = [];
  const add = (code: string, field: string, message: string): void => void errors.push({ code, field, message });
  if (config.buildVersion !== undefined && !(LIVE_BUILD_VERSIONS as readonly string[]).includes(config.buildVersion)) {
    add('INVALID_BUILD_VERSION', 'buildVersion', `unknown build version ${config.buildVersion}`);
  }
  const outputs = compatibleOutputs(config.input.type);
  if (!outputs) add('INVALID_INPUT_STREAM_TYPE', 'input.type', `unknown input stream type ${config.input.type}`);
  else {
    const problem = urlProblem(config.input.url, LIVE_PULL_INPUT_SCHEMES[config.input.type as LiveInputStreamType]);
    if (problem) add(`${problem}_INPUT_URL`, 'input.url', `${config.input.type} needs an input.url (${schemesOf(config.input.type, LIVE_PULL_INPUT_SCHEMES)})`);
  }
  config.outputs.forEach((output, i) => {
    if (outputs && !outputs.includes(output.type)) {
      add('INCOMPATIBLE_OUTPUT', `outputs[${i}].type`, `output ${output.type} is not compatible with input ${config.input.type} (compatible: ${outputs.join(', ')})`);
    }
    const problem = urlProblem(output.url, LIVE_PUSH_OUTPUT_SCHEMES[output.type]);
    if (problem) add(`${problem}_OUTPUT_URL`, `outputs[${i}].url`, `${output.type} needs a url (${schemesOf(output.type, LIVE_PUSH_OUTPUT_SCHEMES)})`);
  });
  const languages = new Set<string>();
  config.translations.forEach((t, i) => {
    if (languages.has(t.language)) add('DUPLICATE_LANGUAGE', `translations[${i}].language`, `language ${t.language} appears twice`);
    languages.add(t.language);
    if (!engineEnabled(account, t.ttsEngine)) {
      add('TTS_ENGINE_NOT_AVAILABLE', `translations[${i}].ttsEngine`, `tts engine ${t.ttsEngine} is unknown or not enabled for the account`);
      return;
    }
    const available = voicesFor(voices, t.language, t.ttsEngine);
    if (!available) return add('INVALID_LANGUAGE', `translations[${i}].language`, `unsupported translation language ${t.language}`);
    const ids = 'items' in available ? available.items.map((v) => v.voicePromptId) : available.voices.map((v) => v.voice_id);
    if (!ids.includes(t.voice)) add('INVALID_VOICE', `translations[${i}].voice`, `voice ${t.voice} is not available for ${t.language}/${t.ttsEngine}`);
  });
  return errors.length === 0 ? undefined : { provider: LIVE_PROVIDER, status: 422, errors };
}
