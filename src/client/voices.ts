/**
 * Client of the voice bank (`/api/v1/voice`): upload a voice sample, list, get, update and delete voice
 * prompts. Failures are typed errors from `errors.ts` (`PayloadTooLargeError`, `AuthenticationError`,
 * `PermissionDeniedError` for the per-account limit, `NotFoundError`, `BadRequestError`, `ServerError`).
 */
import { InvalidArgumentError, PayloadTooLargeError } from '../errors.js';
import {
  VOICE_ERRORS,
  VOICE_UPLOAD_MAX_BASE64_CHARS,
  apiResponseSchema,
  voicePromptEnvelopeSchema,
  voicePromptListSchema,
  voiceUploadResponseSchema,
  type VoicePrompt,
  type VoiceUpdateRequest,
  type VoiceUploadRequest,
} from '../protocol/voices.js';
import { HttpClient, type HttpClientOptions } from './http.js';
import { expectResponse } from './response.js';

/** An upload: the wire request, with `data` as base64 text or as the raw file bytes (encoded for you). */
export type VoiceUploadInput = Omit<VoiceUploadRequest, 'data'> & { data: string | Uint8Array };

/** Per-call options. */
export interface CallOptions {
  signal?: AbortSignal;
}

/** Typed client of the voice bank. */
export class VoicesClient {
  readonly #http: HttpClient;

  /** Takes the shared HTTP options (base URL, key, retries) or an existing {@link HttpClient}. */
  constructor(options: HttpClientOptions | HttpClient) {
    this.#http = options instanceof HttpClient ? options : new HttpClient(options);
  }

  /**
   * Uploads a voice sample (WAV, MP3, FLAC or Ogg) and returns the new voice prompt id. Data over the 20 MB
   * limit is refused before any I/O with {@link PayloadTooLargeError}. Never retried (not idempotent).
   */
  async upload(input: VoiceUploadInput, options: CallOptions = {}): Promise<string> {
    const data = typeof input.data === 'string' ? input.data : Buffer.from(input.data).toString('base64');
    if (data.length > VOICE_UPLOAD_MAX_BASE64_CHARS) {
      throw new PayloadTooLargeError('payload_too_large', VOICE_ERRORS.tooLarge, { status: 413 });
    }
    const body = await this.#http.request<unknown>({ method: 'POST', path: '/api/v1/voice', body: { ...input, data }, maxRetries: 0, signal: options.signal });
    return expectResponse(voiceUploadResponseSchema, body, 'voice upload').response.voice_prompt_id;
  }

  /** The account's voice prompts, newest first (`limit` default 100 on the service). */
  async list(options: CallOptions & { limit?: number } = {}): Promise<VoicePrompt[]> {
    if (options.limit !== undefined && (!Number.isInteger(options.limit) || options.limit < 1)) {
      throw new InvalidArgumentError(`limit must be a positive integer, got ${options.limit}`);
    }
    const body = await this.#http.request<unknown>({ method: 'GET', path: '/api/v1/voice', query: { limit: options.limit }, signal: options.signal });
    return expectResponse(voicePromptListSchema, body, 'voice list').voicePrompts;
  }

  /** One voice prompt; {@link NotFoundError} when the account has none with this id. */
  async get(voicePromptId: string, options: CallOptions = {}): Promise<VoicePrompt> {
    const body = await this.#http.request<unknown>({ method: 'GET', path: `/api/v1/voice/${encodeURIComponent(voicePromptId)}`, signal: options.signal });
    return expectResponse(voicePromptEnvelopeSchema, body, 'voice get').prompt;
  }

  /** Updates name, locale, gender and/or age of a voice prompt and returns it as stored. */
  async update(request: VoiceUpdateRequest, options: CallOptions = {}): Promise<VoicePrompt> {
    const body = await this.#http.request<unknown>({ method: 'PUT', path: '/api/v1/voice', body: request, signal: options.signal });
    return expectResponse(voicePromptEnvelopeSchema, body, 'voice update').prompt;
  }

  /** Deletes a voice prompt (its audio and record); {@link NotFoundError} when there is none. */
  async delete(voicePromptId: string, options: CallOptions = {}): Promise<void> {
    const body = await this.#http.request<unknown>({ method: 'DELETE', path: `/api/v1/voice/${encodeURIComponent(voicePromptId)}`, signal: options.signal });
    expectResponse(apiResponseSchema, body, 'voice delete');
  }
}
