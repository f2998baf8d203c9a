/**
 * Wire shapes of the live API (`/live/services`, `/live/enums`): service config, service record, runtime status,
 * list page, error body, and the enum tables. The output-compatibility table {@link LIVE_OUTPUT_COMPATIBILITY} is
 * the one the enum endpoint serves and config validation enforces. Shared by client and server; no I/O.
 */
import { z } from 'zod';

/** Input stream types (spec "Live service"). */
export const LIVE_INPUT_STREAM_TYPES = ['HlsPullSource', 'HlsPushSource', 'SrtPushSource', 'SrtPullSource', 'RtmpPushSource', 'CmafIngestSource'] as const;
/** One of {@link LIVE_INPUT_STREAM_TYPES}. */
export type LiveInputStreamType = (typeof LIVE_INPUT_STREAM_TYPES)[number];
/** Input types the service pulls from a URL the config gives (`input.url` required), with the URL schemes each takes. */
export const LIVE_PULL_INPUT_SCHEMES: Readonly<Partial<Record<LiveInputStreamType, readonly string[]>>> = {
  HlsPullSource: ['http:', 'https:'],
  SrtPullSource: ['srt:'],
};

const SRT_RTMP_OUTPUTS = ['SrtPushOutput', 'SrtPullOutput', 'RtmpPullOutput', 'RtmpPushOutput', '608'] as const;
/** Compatible output types per input type: served by `/live/enums/output-stream-types/{input}` and enforced on config. */
export const LIVE_OUTPUT_COMPATIBILITY: Readonly<Record<LiveInputStreamType, readonly string[]>> = {
  HlsPullSource: ['HlsPushOutput', '608'],
  HlsPushSource: ['HlsPushOutput', '608'],
  SrtPushSource: SRT_RTMP_OUTPUTS,
  SrtPullSource: SRT_RTMP_OUTPUTS,
  RtmpPushSource: SRT_RTMP_OUTPUTS,
  CmafIngestSource: ['HlsPushOutput', '608'],
};
/** Output types that push to a URL the config gives (`url` required), with the URL schemes each takes. */
export const LIVE_PUSH_OUTPUT_SCHEMES: Readonly<Record<string, readonly string[]>> = {
  HlsPushOutput: ['http:', 'https:'],
  SrtPushOutput: ['srt:'],
  RtmpPushOutput: ['rtmp:', 'rtmps:'],
};

/** Pipeline build versions; the last is the default when a config names none. */
export const LIVE_BUILD_VERSIONS = ['2025.06.1', '2025.09.0', '2025.11.2'] as const;
/** Target languages of live translation. */
export const LIVE_TRANSLATION_LANGUAGES = ['en-US', 'es-ES', 'he-IL', 'fr-FR', 'de-DE', 'pt-BR'] as const;
/** The service's own speech engine (voices are the configured voice bank). */
export const LIVE_OWN_TTS_ENGINE = 'voxpipe';

/** A speech engine selectable for live dubbing. */
export interface LiveTtsEngine {
  id: string;
  /** Third-party engines must be enabled per account (feature `live-tts:<id>`). */
  thirdParty: boolean;
}
/** Engines of `/live/enums/translation-tts-engines`. */
export const LIVE_TTS_ENGINES: readonly LiveTtsEngine[] = [
  { id: LIVE_OWN_TTS_ENGINE, thirdParty: false },
  { id: 'elevenlabs', thirdParty: true },
  { id: 'azure', thirdParty: true },
];

/** Voice of the service's own engine: `{items:[…]}` of `/live/enums/translation-tts-voices/{lang}/voxpipe`. */
export const liveOwnVoiceSchema = z.object({ voicePromptId: z.string(), name: z.string(), gender: z.string(), locale: z.string() });
/** A voice of the own engine. */
export type LiveOwnVoice = z.infer<typeof liveOwnVoiceSchema>;
/** Voice of a third-party engine: `{voices:[…]}` (provider field names). */
export const liveThirdPartyVoiceSchema = z.object({ voice_id: z.string(), display_name: z.string(), language: z.string() });
/** A voice of a third-party engine. */
export type LiveThirdPartyVoice = z.infer<typeof liveThirdPartyVoiceSchema>;
/** Response of the voices enum: shape depends on the engine. */
export const liveVoicesResponseSchema = z.union([z.object({ items: z.array(liveOwnVoiceSchema) }), z.object({ voices: z.array(liveThirdPartyVoiceSchema) })]);
/** Response of the voices enum. */
export type LiveVoicesResponse = z.infer<typeof liveVoicesResponseSchema>;

/** Response of the string-valued enum endpoints. */
export const liveEnumListSchema = z.object({ items: z.array(z.string()) });
/** Response of `/live/enums/translation-tts-engines`. */
export const liveEngineListSchema = z.object({ items: z.array(z.object({ id: z.string(), thirdParty: z.boolean(), enabled: z.boolean() })) });

/** Body of POST and PUT `/live/services` (shape only; ids are checked against the enums separately, 422). */
export const liveServiceConfigSchema = z
  .object({
    name: z.string().trim().min(1, 'name is required').max(200),
    buildVersion: z.string().min(1).optional(),
    input: z.object({ type: z.string().min(1, 'input.type is required'), url: z.string().url().optional() }).loose(),
    outputs: z.array(z.object({ type: z.string().min(1), url: z.string().url().optional() }).loose()).min(1, 'at least one output is required'),
    translations: z
      .array(z.object({ language: z.string().min(2), ttsEngine: z.string().min(1), voice: z.string().min(1) }).loose())
      .min(1, 'at least one translation is required'),
  })
  .loose();
/** A live service config. */
export type LiveServiceConfig = z.infer<typeof liveServiceConfigSchema>;

/** Runtime states. */
export const LIVE_STATES = ['running', 'stopped'] as const;
/** One of {@link LIVE_STATES}. */
export type LiveState = (typeof LIVE_STATES)[number];

/** A service record: GET one, list items, POST/PUT/start/stop responses. `id` and `serviceId` are the same number. */
export const liveServiceSchema = z.object({
  id: z.number().int(),
  serviceId: z.number().int(),
  config: liveServiceConfigSchema,
  state: z.enum(LIVE_STATES),
  createdAt: z.string(),
  updatedAt: z.string(),
});
/** A live service. */
export type LiveService = z.infer<typeof liveServiceSchema>;

/** `GET /live/services` page. `page` is 1-based. */
export const liveServiceListSchema = z.object({ items: z.array(liveServiceSchema), page: z.number().int(), perPage: z.number().int(), total: z.number().int() });
/** A list page. */
export type LiveServiceList = z.infer<typeof liveServiceListSchema>;
/** `scope` of the list: all services, or only running / stopped ones. */
export const LIVE_LIST_SCOPES = ['all', 'running', 'stopped'] as const;

/** `GET /live/services/{id}/status`. `captions` maps each translation language to its HLS WebVTT playlist URL. */
export const liveStatusSchema = z.object({
  serviceId: z.number().int(),
  state: z.enum(LIVE_STATES),
  active: z.boolean(),
  inputConnected: z.boolean(),
  startedAt: z.string().nullable(),
  captions: z.record(z.string(), z.string()),
  lastError: z.string().nullable(),
});
/** Runtime status. */
export type LiveStatus = z.infer<typeof liveStatusSchema>;

/** The provider-style original error carried in the `upstream` field of a 422. */
export interface LiveUpstreamError {
  provider: string;
  status: number;
  errors: Array<{ code: string; field: string; message: string }>;
}

/** Error body of the live API: `message`, a stable `code`, `upstream` on 422, FastAPI-style `detail` on 400/422. */
export interface LiveErrorBody {
  message: string;
  code: string;
  upstream?: LiveUpstreamError;
  detail?: Array<{ loc: Array<string | number>; msg: string; type: string }>;
}
