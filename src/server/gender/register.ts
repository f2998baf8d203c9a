/**
 * Gender classification under /api/v1/gender-detection:
 * - `POST /classify` takes JSON `audio_base64` and/or `audio_url` (base64 wins when both are given);
 * - `POST /classify/upload` takes a multipart/form-data `file` field.
 * Both decode the audio, track the pitch over voiced frames and classify from the median F0
 * ({@link classifyGender}). Failures are `{error, detail}`: 400 when no audio is given or it cannot be
 * decoded/fetched, 401 for a bad key, 413 for audio over {@link GENDER_MAX_AUDIO_BYTES}, 422 when the audio
 * holds no voiced speech, 504 when a fetch times out, 500 when classification fails.
 */
import { performance } from 'node:perf_hooks';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { InvalidAudioError } from '../../errors.js';
import { genderClassificationRequestSchema, type GenderClassificationResponse, type GenderErrorBody } from '../../protocol/gender.js';
import { analyzeVoice, speechProblem, type VoiceAnalysis } from '../audio-analysis/analyze.js';
import { decodeBase64Strict } from '../audio-analysis/base64.js';
import { Authenticator } from '../auth.js';
import type { ServerContext } from '../context.js';
import { classifyGender } from './classifier.js';
import { AudioFetchError, fetchAudio, S3_ENDPOINT_ENV } from './fetch-audio.js';

/** Largest audio file classified (decoded from base64, uploaded or fetched), bytes. */
export const GENDER_MAX_AUDIO_BYTES = 32 * 1024 * 1024;
/** Timeout of an `audio_url` download, ms. */
export const GENDER_FETCH_TIMEOUT_MS = 15_000;

const TITLES: Record<number, string> = {
  400: 'Bad request',
  401: 'Unauthorized',
  413: 'Payload too large',
  422: 'Unprocessable audio',
  504: 'Gateway timeout',
};

/** A refused request: status and the `detail` of the `{error, detail}` body (`error` follows from the status). */
class GenderFailure extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
  ) {
    super(detail);
  }
}

const tooLarge = (what: string): GenderFailure => new GenderFailure(413, `${what} exceeds the ${GENDER_MAX_AUDIO_BYTES / (1024 * 1024)} MB limit`);

/** Decodes, measures and classifies `bytes`; `started` is when the request arrived (performance.now()). */
async function classifyAudio(bytes: Uint8Array, started: number): Promise<{ body: GenderClassificationResponse; analysis: VoiceAnalysis }> {
  let analysis: VoiceAnalysis;
  try {
    analysis = await analyzeVoice(bytes);
  } catch (error) {
    if (error instanceof InvalidAudioError) throw new GenderFailure(400, `audio could not be decoded: ${error.message}`);
    throw error;
  }
  const problem = speechProblem(analysis);
  if (problem || analysis.medianF0Hz === undefined) throw new GenderFailure(422, problem ?? 'no voiced speech found in the audio');
  const body: GenderClassificationResponse = {
    ...classifyGender(analysis.medianF0Hz, analysis.voicedSeconds),
    duration_seconds: Math.round(analysis.durationSeconds * 1000) / 1000,
    processing_time_ms: Math.round((performance.now() - started) * 10) / 10,
  };
  return { body, analysis };
}

/** The audio of a JSON classify request. */
async function audioOfJson(body: unknown): Promise<Uint8Array> {
  const parsed = genderClassificationRequestSchema.safeParse(body ?? {});
  if (!parsed.success) throw new GenderFailure(400, 'the body must be a JSON object with audio_url and/or audio_base64 strings');
  const { audio_url: audioUrl, audio_base64: audioBase64 } = parsed.data;
  if (audioBase64) {
    let bytes: Uint8Array;
    try {
      bytes = decodeBase64Strict(audioBase64);
    } catch (error) {
      throw new GenderFailure(400, `audio_base64 is not valid base64: ${(error as Error).message}`);
    }
    if (bytes.length > GENDER_MAX_AUDIO_BYTES) throw tooLarge('audio_base64');
    return bytes;
  }
  if (!audioUrl) throw new GenderFailure(400, 'Either audio_url or audio_base64 must be provided');
  try {
    return await fetchAudio(audioUrl, { maxBytes: GENDER_MAX_AUDIO_BYTES, timeoutMs: GENDER_FETCH_TIMEOUT_MS, s3Endpoint: process.env[S3_ENDPOINT_ENV] || undefined });
  } catch (error) {
    if (error instanceof AudioFetchError) throw new GenderFailure(error.status, error.message);
    throw error;
  }
}

/** The `file` field of a multipart/form-data upload (parsed by the platform's own FormData reader). */
async function audioOfUpload(req: FastifyRequest): Promise<Uint8Array> {
  const type = req.headers['content-type'] ?? '';
  if (!type.toLowerCase().startsWith('multipart/form-data') || !Buffer.isBuffer(req.body)) {
    throw new GenderFailure(400, 'the body must be multipart/form-data with a file field');
  }
  let form: FormData;
  try {
    form = await new Response(new Uint8Array(req.body), { headers: { 'content-type': type } }).formData();
  } catch (error) {
    throw new GenderFailure(400, `the multipart body could not be parsed: ${(error as Error).message}`);
  }
  const file = form.get('file');
  if (!file || typeof file === 'string') throw new GenderFailure(400, 'No file uploaded');
  if (file.size > GENDER_MAX_AUDIO_BYTES) throw tooLarge('the uploaded file');
  return new Uint8Array(await file.arrayBuffer());
}

/** Registers gender classification under /api/v1/gender-detection on `app`. */
export function registerGender(app: FastifyInstance, ctx: ServerContext): void {
  const log = ctx.logger.child({ area: 'gender' });
  const handle = (audioOf: (req: FastifyRequest) => Promise<Uint8Array>) => async (req: FastifyRequest) => {
    const started = performance.now();
    if (!ctx.auth.account(Authenticator.keyFrom(req.headers, undefined, false))) throw new GenderFailure(401, 'Invalid or missing API key');
    const { body, analysis } = await classifyAudio(await audioOf(req), started);
    log.debug({ format: analysis.format, medianF0Hz: analysis.medianF0Hz, voicedSeconds: analysis.voicedSeconds }, 'classified');
    return body;
  };

  void app.register(async (scope) => {
    scope.setErrorHandler((error: Error & { statusCode?: number }, _req, reply) => {
      const [status, detail] = error instanceof GenderFailure ? [error.status, error.detail] : [error.statusCode ?? 500, error.message];
      if (status >= 500 && status !== 504) {
        log.error({ err: error }, 'classification request failed');
        const failed: GenderErrorBody = { error: 'Classification failed', detail: 'Internal server error' };
        return reply.code(500).send(failed);
      }
      const body: GenderErrorBody = { error: TITLES[status] ?? 'Bad request', detail };
      return reply.code(status).send(body);
    });

    scope.post('/api/v1/gender-detection/classify', handle((req) => audioOfJson(req.body)));
    scope.post('/api/v1/gender-detection/classify/upload', handle(audioOfUpload));
  });
}
