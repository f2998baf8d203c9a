/**
 * Gender classification under /api/v1/gender-detection: `POST /classify` takes `audio_base64` and/or
 * `audio_url` (base64 wins when both are given), decodes the audio, tracks the pitch over voiced frames
 * and classifies from the median F0 ({@link classifyGender}). Failures are `{error, detail}`: 400 when
 * neither field is given or the audio cannot be decoded/fetched, 401 for a bad key, 413 for audio over
 * {@link GENDER_MAX_AUDIO_BYTES}, 422 when the audio holds no voiced speech, 504 when a fetch times out,
 * 500 when classification fails.
 */
import { performance } from 'node:perf_hooks';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { InvalidAudioError } from '../../errors.js';
import { genderClassificationRequestSchema, type GenderClassificationResponse, type GenderErrorBody } from '../../protocol/gender.js';
import { analyzeVoice, speechProblem, type VoiceAnalysis } from '../audio-analysis/analyze.js';
import { decodeBase64Strict } from '../audio-analysis/base64.js';
import { Authenticator } from '../auth.js';
import type { ServerContext } from '../context.js';
import { classifyGender } from './classifier.js';
import { AudioFetchError, fetchAudio, S3_ENDPOINT_ENV } from './fetch-audio.js';

/** Largest audio file classified (decoded from base64 or fetched), bytes. */
export const GENDER_MAX_AUDIO_BYTES = 32 * 1024 * 1024;
/** Timeout of an `audio_url` download, ms. */
export const GENDER_FETCH_TIMEOUT_MS = 15_000;

function fail(reply: FastifyReply, status: number, error: string, detail: string): FastifyReply {
  const body: GenderErrorBody = { error, detail };
  return reply.code(status).send(body);
}

const ERROR_TITLES: Record<number, string> = {
  400: 'Bad request',
  413: 'Payload too large',
  422: 'Unprocessable audio',
  504: 'Gateway timeout',
};

/** Registers gender classification under /api/v1/gender-detection on `app`. */
export function registerGender(app: FastifyInstance, ctx: ServerContext): void {
  const log = ctx.logger.child({ area: 'gender' });
  void app.register(async (scope) => {
    scope.setErrorHandler((error: { statusCode?: number; message: string }, _req, reply) => {
      const status = error.statusCode ?? 500;
      if (status >= 500) {
        log.error({ err: error }, 'classification request failed');
        return fail(reply, 500, 'Classification failed', 'Internal server error');
      }
      return fail(reply, status, ERROR_TITLES[status] ?? 'Bad request', error.message);
    });

    scope.post('/api/v1/gender-detection/classify', async (req, reply) => {
      const started = performance.now();
      if (!ctx.auth.account(Authenticator.keyFrom(req.headers, undefined, false))) {
        return fail(reply, 401, 'Unauthorized', 'Invalid or missing API key');
      }
      const parsed = genderClassificationRequestSchema.safeParse(req.body ?? {});
      if (!parsed.success) return fail(reply, 400, 'Bad request', 'the body must be a JSON object with audio_url and/or audio_base64 strings');
      const { audio_url: audioUrl, audio_base64: audioBase64 } = parsed.data;
      if (!audioUrl && !audioBase64) return fail(reply, 400, 'Bad request', 'Either audio_url or audio_base64 must be provided');

      let bytes: Uint8Array;
      try {
        if (audioBase64) {
          bytes = decodeBase64Strict(audioBase64);
          if (bytes.length > GENDER_MAX_AUDIO_BYTES) return fail(reply, 413, ERROR_TITLES[413] as string, `audio_base64 exceeds the ${GENDER_MAX_AUDIO_BYTES / (1024 * 1024)} MB limit`);
        } else {
          bytes = await fetchAudio(audioUrl as string, {
            maxBytes: GENDER_MAX_AUDIO_BYTES,
            timeoutMs: GENDER_FETCH_TIMEOUT_MS,
            s3Endpoint: process.env[S3_ENDPOINT_ENV] || undefined,
          });
        }
      } catch (error) {
        if (error instanceof AudioFetchError) return fail(reply, error.status, ERROR_TITLES[error.status] ?? 'Bad request', error.message);
        if (error instanceof InvalidAudioError) return fail(reply, 400, 'Bad request', `audio_base64 is not valid base64: ${error.message}`);
        throw error;
      }

      let analysis: VoiceAnalysis;
      try {
        analysis = await analyzeVoice(bytes);
      } catch (error) {
        if (error instanceof InvalidAudioError) return fail(reply, 400, 'Bad request', `audio could not be decoded: ${error.message}`);
        throw error;
      }
      const problem = speechProblem(analysis);
      if (problem || analysis.medianF0Hz === undefined) return fail(reply, 422, 'Unprocessable audio', problem ?? 'no voiced speech found in the audio');
      const decision = classifyGender(analysis.medianF0Hz, analysis.voicedSeconds);
      const body: GenderClassificationResponse = {
        ...decision,
        duration_seconds: Math.round(analysis.durationSeconds * 1000) / 1000,
        processing_time_ms: Math.round((performance.now() - started) * 10) / 10,
      };
      log.debug({ format: analysis.format, medianF0Hz: analysis.medianF0Hz, voicedSeconds: analysis.voicedSeconds }, 'classified');
      return reply.send(body);
    });
  });
}
