/**
 * Wire shapes of the speech streaming socket (`/ws`): client actions, server messages, the
 * `stream-config` payload with its defaults, and the exact session error texts of the spec.
 * Shared by the client and the reference server; no I/O here.
 */
import { z } from 'zod';

/** Output formats of the speech socket. An unrecognized value yields `wav`. */
export const AUDIO_FORMATS = ['wav', 'mp3', 'opus', 'mulaw', 's16le'] as const;
/** One of {@link AUDIO_FORMATS}. */
export type AudioFormat = (typeof AUDIO_FORMATS)[number];

/** Output sample rates the service produces (generation is 48 kHz and resampled). */
export const SAMPLE_RATES = [8000, 16000, 22050, 24000, 32000, 36000, 44100, 48000] as const;
/** One of {@link SAMPLE_RATES}. */
export type SampleRate = (typeof SAMPLE_RATES)[number];

/** Defaults of the `stream-config` fields, as the spec states them. */
export const STREAM_CONFIG_DEFAULTS = {
  format: 'wav',
  realtime: true,
  cleanAudio: true,
  outputDiacritized: false,
  enableLogging: true,
  firstAudioTimeout: 50,
  acceptEmojis: false,
} as const;

/** Limit on the inline voice prompt (decoded bytes). */
export const VOICE_PROMPT_MAX_BYTES = 1024 * 1024;
/** Sample rate an inline voice prompt must have. */
export const VOICE_PROMPT_SAMPLE_RATE = 48_000;

/** Returns `format` when it is a known format, else `wav` (the spec's silent fallback). */
export function normalizeFormat(format: unknown): AudioFormat {
  return typeof format === 'string' && (AUDIO_FORMATS as readonly string[]).includes(format) ? (format as AudioFormat) : 'wav';
}

/** Default sample rate of a format: 8000 for `mulaw`, 48000 otherwise. */
export function defaultSampleRate(format: AudioFormat): SampleRate {
  return format === 'mulaw' ? 8000 : 48000;
}

/** Whether `rate` is one of {@link SAMPLE_RATES}. */
export function isSampleRate(rate: unknown): rate is SampleRate {
  return typeof rate === 'number' && (SAMPLE_RATES as readonly number[]).includes(rate);
}

/**
 * The `stream-config` payload. Only `model` is required (checked by the server so the spec's message is
 * used); unknown keys are tolerated and kept.
 */
export const streamConfigSchema = z
  .object({
    model: z.string().optional(),
    voicePromptId: z.string().optional(),
    voicePrompt: z.string().optional(),
    locale: z.string().optional(),
    format: z.string().optional(),
    sampleRate: z.number().int().optional(),
    realtime: z.boolean().optional(),
    cleanAudio: z.boolean().optional(),
    targetGender: z.string().optional(),
    outputDiacritized: z.boolean().optional(),
    enableLogging: z.boolean().optional(),
    firstAudioTimeout: z.number().int().nonnegative().optional(),
    acceptEmojis: z.boolean().optional(),
  })
  .loose();
/** A `stream-config` payload as sent by a client. */
export type StreamConfig = z.infer<typeof streamConfigSchema>;

/** `stream-config`: the payload may sit under `config` or `data`. */
export interface StreamConfigAction {
  action: 'stream-config';
  config?: StreamConfig;
  data?: StreamConfig;
}
/** `stream-text`: `text` (and `ctx`) top-level or inside `data`. */
export interface StreamTextAction {
  action: 'stream-text';
  text?: string;
  ctx?: string;
  data?: { text?: string; ctx?: string };
}
/** `end-stream`: flush the tail and close the turn. */
export interface EndStreamAction {
  action: 'end-stream';
}
/** `cancel`: abort generations in flight and clear buffers. */
export interface CancelAction {
  action: 'cancel';
}
/** `ping`: the server answers `pong`. */
export interface PingAction {
  action: 'ping';
}
/** Every client action of `/ws`. */
export type ClientAction = StreamConfigAction | StreamTextAction | EndStreamAction | CancelAction | PingAction;

/** A client action after normalization: config payload and text resolved wherever they were placed. */
export type NormalizedClientAction =
  | { action: 'stream-config'; config: StreamConfig }
  | { action: 'stream-text'; text: string; ctx?: string }
  | { action: 'end-stream' }
  | { action: 'cancel' }
  | { action: 'ping' };

/** Outcome of {@link parseClientAction}. */
export type ParsedClientAction =
  | { ok: true; message: NormalizedClientAction }
  | { ok: false; error: string };

const CLIENT_ACTIONS = new Set(['stream-config', 'stream-text', 'end-stream', 'cancel', 'ping']);

/**
 * Parses one `/ws` frame (text or binary) into a normalized action. Non-JSON, non-object and unknown
 * actions are reported with the spec's error text, never thrown.
 */
export function parseClientAction(frame: string | Buffer | ArrayBuffer | Buffer[]): ParsedClientAction {
  let raw: unknown;
  try {
    raw = JSON.parse(frameToString(frame));
  } catch {
    return { ok: false, error: SPEECH_ERRORS.invalidFormat };
  }
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return { ok: false, error: SPEECH_ERRORS.invalidFormat };
  const msg = raw as Record<string, unknown>;
  const action = msg.action;
  if (typeof action !== 'string' || !CLIENT_ACTIONS.has(action)) {
    return { ok: false, error: SPEECH_ERRORS.unknownAction(String(action)) };
  }
  switch (action) {
    case 'stream-config': {
      const payload = isObject(msg.config) ? msg.config : isObject(msg.data) ? msg.data : undefined;
      if (!payload) return { ok: false, error: SPEECH_ERRORS.modelRequired };
      const parsed = streamConfigSchema.safeParse(payload);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        return { ok: false, error: `invalid configuration: ${issue ? `${issue.path.join('.')}: ${issue.message}` : 'bad payload'}` };
      }
      return { ok: true, message: { action, config: parsed.data } };
    }
    case 'stream-text': {
      const data = isObject(msg.data) ? msg.data : undefined;
      const text = typeof msg.text === 'string' ? msg.text : typeof data?.text === 'string' ? data.text : undefined;
      if (text === undefined) return { ok: false, error: SPEECH_ERRORS.textRequired };
      const ctx = typeof msg.ctx === 'string' ? msg.ctx : typeof data?.ctx === 'string' ? data.ctx : undefined;
      return { ok: true, message: ctx === undefined ? { action, text } : { action, text, ctx } };
    }
    default:
      return { ok: true, message: { action: action as 'end-stream' | 'cancel' | 'ping' } };
  }
}

/** Exact session error texts of the spec (and the few the spec leaves to the implementation). */
export const SPEECH_ERRORS = {
  invalidFormat: 'Invalid message format',
  modelRequired: 'model is required in configuration',
  queueRouteNotFound: (model: string) => `queue route not found for model: ${model}`,
  configRequired: "please send 'stream-config' action with model before streaming text",
  voicePromptTooLarge: 'voicePrompt exceeds maximum size of 1MB',
  voicePromptNotBase64: (detail: string) => `voicePrompt must be base64-encoded: ${detail}`,
  voicePromptNotMono: (channels: number) => `voicePrompt must be mono (1 channel), got ${channels} channels`,
  voicePromptWrongRate: (rate: number) => `voicePrompt must be 48000Hz sample rate, got ${rate}Hz`,
  voicePromptNotWav: (detail: string) => `voicePrompt is not a WAV file: ${detail}`,
  /** Not in the spec's table: an action name the service does not know. */
  unknownAction: (action: string) => `unknown action: ${action}`,
  /** Not in the spec's table: `stream-text` without a text string. */
  textRequired: 'text is required for stream-text',
  /** Not in the spec's table: a sampleRate outside the listed rates. */
  invalidSampleRate: (rate: unknown) => `sampleRate must be one of ${SAMPLE_RATES.join(', ')}, got ${String(rate)}`,
  /** Not in the spec's table: a voicePromptId the account cannot use. */
  voiceNotFound: (id: string) => `voice prompt not found: ${id}`,
} as const;

/** Welcome and cancel acknowledgement. */
export interface StatusMessage {
  action: 'status';
  message: 'connected' | 'cancelled' | (string & {});
  connectionId?: string;
}
/** Reply to `ping`. */
export interface PongMessage {
  action: 'pong';
}
/** Session-level error; the session stays open. `time` is Unix seconds. */
export interface SessionErrorMessage {
  action: 'error';
  message: string;
  time: number;
}
/** Audio chunk or a generation's closing message (no `action`). */
export interface AudioChunkMessage {
  generationId: string;
  /** Chunk index within the generation, from 0; absent on a cancellation notice. */
  index?: number;
  /** Base64 audio; absent on closing chunks. */
  data?: string;
  isFinished: boolean;
  isFinal?: boolean;
  isCancelled?: boolean;
  diacritized?: string;
}
/** Worker-level error: that generation stops; others continue. */
export interface GenerationErrorMessage {
  generationId: string;
  error: string;
}
/** Every message the server sends on `/ws`. */
export type ServerMessage = StatusMessage | PongMessage | SessionErrorMessage | AudioChunkMessage | GenerationErrorMessage;

/** Classification of a server message, see {@link parseServerMessage}. */
export type ParsedServerMessage =
  | { kind: 'status'; message: StatusMessage }
  | { kind: 'pong'; message: PongMessage }
  | { kind: 'error'; message: SessionErrorMessage }
  | { kind: 'chunk'; message: AudioChunkMessage }
  | { kind: 'generation-error'; message: GenerationErrorMessage }
  | { kind: 'invalid'; reason: string; raw: string };

/** Parses and classifies a server frame; a bad frame becomes `{kind:'invalid'}`, never a throw. */
export function parseServerMessage(frame: string | Buffer | ArrayBuffer | Buffer[]): ParsedServerMessage {
  const text = frameToString(frame);
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return { kind: 'invalid', reason: 'not JSON', raw: text };
  }
  if (!isObject(raw)) return { kind: 'invalid', reason: 'not an object', raw: text };
  const m = raw;
  if (m.action === 'status' && typeof m.message === 'string') return { kind: 'status', message: m as unknown as StatusMessage };
  if (m.action === 'pong') return { kind: 'pong', message: { action: 'pong' } };
  if (m.action === 'error') {
    return {
      kind: 'error',
      message: { action: 'error', message: typeof m.message === 'string' ? m.message : 'unknown error', time: typeof m.time === 'number' ? m.time : 0 },
    };
  }
  if (typeof m.generationId === 'string') {
    if (typeof m.error === 'string') return { kind: 'generation-error', message: { generationId: m.generationId, error: m.error } };
    if (m.data !== undefined && typeof m.data !== 'string') return { kind: 'invalid', reason: 'chunk data is not a string', raw: text };
    if (m.index !== undefined && (typeof m.index !== 'number' || !Number.isInteger(m.index) || m.index < 0)) {
      return { kind: 'invalid', reason: 'chunk index is not a non-negative integer', raw: text };
    }
    return { kind: 'chunk', message: { ...(m as unknown as AudioChunkMessage), isFinished: m.isFinished === true } };
  }
  return { kind: 'invalid', reason: 'unrecognized message', raw: text };
}

/** Decodes a WebSocket frame payload (text or binary) to a string. */
export function frameToString(frame: string | Buffer | ArrayBuffer | Buffer[]): string {
  if (typeof frame === 'string') return frame;
  if (Array.isArray(frame)) return Buffer.concat(frame).toString('utf8');
  if (frame instanceof ArrayBuffer) return Buffer.from(frame).toString('utf8');
  return frame.toString('utf8');
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
