/**
 * Client of speaker gender classification (`POST /api/v1/gender-detection/classify`). Failures arrive as
 * typed errors whose message is `error: detail` of the `{error, detail}` body (`BadRequestError`,
 * `AuthenticationError`, `ValidationError` for audio without voiced speech, `ServerError`).
 */
import { InvalidArgumentError } from '../errors.js';
import { genderClassificationResponseSchema, type GenderClassificationResponse } from '../protocol/gender.js';
import { HttpClient, type HttpClientOptions } from './http.js';
import { expectResponse } from './response.js';
import type { CallOptions } from './voices.js';

/** What to classify: a URL (http, https, or s3 on a service with an S3 endpoint), base64 audio, or raw bytes. */
export type GenderClassifyInput = { audioUrl: string } | { audioBase64: string } | { audio: Uint8Array };

/** Typed client of gender classification. */
export class GenderClient {
  readonly #http: HttpClient;

  /** Takes the shared HTTP options (base URL, key, retries) or an existing {@link HttpClient}. */
  constructor(options: HttpClientOptions | HttpClient) {
    this.#http = options instanceof HttpClient ? options : new HttpClient(options);
  }

  /** Classifies the speaker of one recording (WAV, MP3, FLAC, Ogg Vorbis/Opus). */
  async classify(input: GenderClassifyInput, options: CallOptions = {}): Promise<GenderClassificationResponse> {
    const body =
      'audioUrl' in input
        ? { audio_url: input.audioUrl }
        : 'audioBase64' in input
          ? { audio_base64: input.audioBase64 }
          : { audio_base64: Buffer.from(input.audio).toString('base64') };
    if (Object.values(body)[0] === '') throw new InvalidArgumentError('classify needs a non-empty audioUrl, audioBase64 or audio');
    const result = await this.#http.request<unknown>({ method: 'POST', path: '/api/v1/gender-detection/classify', body, signal: options.signal });
    return expectResponse(genderClassificationResponseSchema, result, 'gender classification');
  }
}
