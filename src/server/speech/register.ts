/** Registers the speech streaming socket `/ws` and `POST /api/v1/tts`. */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { encodeWav } from '../../audio/wav.js';
import { Authenticator } from '../auth.js';
import type { AccountConfig } from '../config.js';
import type { ServerContext } from '../context.js';
import { GenerationFailure, renderSegments } from './render.js';
import { SpeechSession } from './session.js';
import { resolveSettings, speakText } from './settings.js';

/** Content type of each output format of `POST /api/v1/tts`. */
export const TTS_CONTENT_TYPES = {
  wav: 'audio/wav',
  mp3: 'audio/mpeg',
  opus: 'audio/ogg; codecs=opus',
  mulaw: 'audio/basic',
  s16le: 'audio/L16',
} as const;

/** Longest `targetText` of `POST /api/v1/tts` and `/open` requests. */
export const MAX_TARGET_TEXT_CHARS = 10_000;

const ttsBodySchema = z
  .object({
    model: z.string().min(1, 'model is required'),
    targetText: z.string().min(1, 'targetText is required').max(MAX_TARGET_TEXT_CHARS, `targetText exceeds ${MAX_TARGET_TEXT_CHARS} characters`),
    locale: z.string().optional(),
    voicePromptId: z.string().optional(),
    format: z.string().optional(),
    sampleRate: z.number().int().optional(),
  })
  .loose();

/** Registers the speech streaming socket and the one-shot TTS endpoint on `app`. */
export function registerSpeech(app: FastifyInstance, ctx: ServerContext): void {
  ctx.ws.add<AccountConfig>({
    match: (pathname) => (pathname === '/ws' ? {} : undefined),
    accept: (req, url) => {
      const account = ctx.auth.account(Authenticator.keyFrom(req.headers, url, true));
      return account ? { accept: account } : { reject: 401, message: 'unauthorized: invalid or missing API key' };
    },
    connected: (ws, _req, account) => {
      new SpeechSession(ws, ctx, account);
    },
  });

  app.post('/api/v1/tts', async (req, reply) => {
    const account = ctx.auth.account(Authenticator.keyFrom(req.headers, undefined, false));
    if (!account) return reply.code(401).send({ success: false, message: 'unauthorized: invalid or missing API key' });
    const parsed = ttsBodySchema.safeParse(req.body);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return reply.code(400).send({ success: false, message: issue ? `${issue.path.join('.') || 'body'}: ${issue.message}` : 'invalid request body' });
    }
    const body = parsed.data;
    const settings = resolveSettings(
      { model: body.model, ...(body.voicePromptId ? { voicePromptId: body.voicePromptId } : {}), ...(body.locale ? { locale: body.locale } : {}), ...(body.format ? { format: body.format } : {}), ...(body.sampleRate ? { sampleRate: body.sampleRate } : {}), realtime: false },
      undefined,
      { config: ctx.config, account, voices: ctx.voices },
    );
    if (!settings.ok) return reply.code(400).send({ success: false, message: settings.error });
    const s = settings.settings;
    const segments = speakText(body.targetText, s, account.id, ctx);
    const controller = new AbortController();
    // The client went away before the audio was ready: stop synthesizing.
    reply.raw.once('close', () => {
      if (!reply.raw.writableFinished) controller.abort();
    });
    // WAV is sent as one file with one header: render raw samples and wrap them.
    const renderSettings = s.format === 'wav' ? { ...s, format: 's16le' as const } : s;
    const parts: Buffer[] = [];
    try {
      for await (const piece of renderSegments(segments, renderSettings, { synthesizer: ctx.synthesizer, voices: ctx.voices, accountId: account.id }, controller.signal)) parts.push(piece.data);
    } catch (error) {
      const status = error instanceof GenerationFailure ? 400 : 500;
      return reply.code(status).send({ success: false, message: (error as Error).message });
    }
    const audio = Buffer.concat(parts);
    const bytes = s.format === 'wav' ? encodeWav(new Int16Array(new Uint8Array(audio).buffer), s.sampleRate) : audio;
    return reply.type(s.format === 's16le' ? `audio/L16; rate=${s.sampleRate}` : TTS_CONTENT_TYPES[s.format]).header('x-sample-rate', String(s.sampleRate)).send(bytes);
  });
}
