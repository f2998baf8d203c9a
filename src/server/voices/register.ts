/**
 * The voice bank under /api/v1/voice (paths and shapes of the reference OpenAPI):
 * - `POST /api/v1/voice` upload → `{response:{voice_prompt_id}}`
 * - `GET /api/v1/voice?limit=N` → `{voicePrompts:[…]}` (newest first, default 100)
 * - `GET /api/v1/voice/{prompt_id}` → `{prompt}`
 * - `PUT /api/v1/voice` `{id, name?, locale?, gender?, age?}` → `{prompt}` (empty fields are left alone)
 * - `DELETE /api/v1/voice/{prompt_id}` → `{success:true, message, data:{voice_prompt_id}}`
 * Failures are `{success:false, message}`: 400 invalid input, 401 bad key, 403 limit reached, 404 unknown id,
 * 413 data over 20 MB, 500 internal error. Registering also installs {@link VoiceBankDirectory} as `ctx.voices`,
 * so an uploaded prompt id works as `voicePromptId` on the speech sockets.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { VOICE_ERRORS, voiceUpdateRequestSchema, type ApiErrorBody, type ApiResponse, type VoiceUploadResponse } from '../../protocol/voices.js';
import type { AccountConfig } from '../config.js';
import { Authenticator } from '../auth.js';
import type { ServerContext } from '../context.js';
import { VoiceBankDirectory } from './directory.js';
import { toWirePrompt, VoicePromptStore } from './store.js';
import { uploadVoicePrompt, VoiceBankFailure } from './upload.js';
import { describeIssues } from './validation.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Default and largest `limit` of the list operation. */
export const VOICE_LIST_DEFAULT_LIMIT = 100;

function fail(reply: FastifyReply, status: number, message: string): FastifyReply {
  const body: ApiErrorBody = { success: false, message };
  return reply.code(status).send(body);
}

/** Registers the voice bank under /api/v1/voice on `app` and installs the voice-bank-aware directory. */
export function registerVoices(app: FastifyInstance, ctx: ServerContext): void {
  const log = ctx.logger.child({ area: 'voices' });
  const store = new VoicePromptStore(ctx.db, ctx.dataDir);
  ctx.voices = new VoiceBankDirectory(ctx.voices, store);

  const account = (req: FastifyRequest): AccountConfig => {
    const found = ctx.auth.account(Authenticator.keyFrom(req.headers, undefined, false));
    if (!found) throw new VoiceBankFailure(401, VOICE_ERRORS.unauthorized);
    return found;
  };
  const promptId = (req: FastifyRequest): string => {
    const id = (req.params as { prompt_id?: string }).prompt_id ?? '';
    if (!UUID.test(id)) throw new VoiceBankFailure(400, 'Invalid voice prompt ID format');
    return id;
  };

  void app.register(async (scope) => {
    scope.setErrorHandler((error: Error & { statusCode?: number }, _req, reply) => {
      if (error instanceof VoiceBankFailure) return fail(reply, error.status, error.message);
      if (error.statusCode === 413) return fail(reply, 413, VOICE_ERRORS.tooLarge);
      if (error.statusCode !== undefined && error.statusCode < 500) return fail(reply, error.statusCode, `Invalid request: ${error.message}`);
      log.error({ err: error }, 'voice bank request failed');
      return fail(reply, 500, VOICE_ERRORS.internal);
    });

    scope.post('/api/v1/voice', async (req) => {
      const owner = account(req);
      const prompt = await uploadVoicePrompt(store, owner.id, owner.voicePromptLimit, req.body);
      log.info({ voicePromptId: prompt.id, format: prompt.format, pitchHz: prompt.pitchHz }, 'voice prompt stored');
      const body: VoiceUploadResponse = { response: { voice_prompt_id: prompt.id } };
      return body;
    });

    scope.get('/api/v1/voice', async (req) => {
      const owner = account(req);
      const raw = (req.query as { limit?: string }).limit;
      const limit = raw === undefined ? VOICE_LIST_DEFAULT_LIMIT : Number(raw);
      if (!Number.isInteger(limit) || limit < 1) throw new VoiceBankFailure(400, 'Invalid request parameters: limit must be a positive integer');
      return { voicePrompts: store.list(owner.id, limit).map(toWirePrompt) };
    });

    scope.get('/api/v1/voice/:prompt_id', async (req) => {
      const owner = account(req);
      const prompt = store.get(owner.id, promptId(req));
      if (!prompt) throw new VoiceBankFailure(404, VOICE_ERRORS.notFound);
      return { prompt: toWirePrompt(prompt) };
    });

    scope.put('/api/v1/voice', async (req) => {
      const owner = account(req);
      const parsed = voiceUpdateRequestSchema.safeParse(req.body ?? {});
      if (!parsed.success) throw new VoiceBankFailure(400, `Invalid request: ${describeIssues(parsed.error)}`);
      const { id, name, locale, gender, age } = parsed.data;
      if (!UUID.test(id)) throw new VoiceBankFailure(400, 'Invalid voice prompt ID format');
      const updated = store.update(owner.id, id, {
        ...(name?.trim() ? { name: name.trim() } : {}),
        ...(locale?.trim() ? { locale: locale.trim() } : {}),
        ...(gender ? { gender } : {}),
        ...(age === undefined ? {} : { age }),
      });
      if (!updated) throw new VoiceBankFailure(404, VOICE_ERRORS.notFound);
      return { prompt: toWirePrompt(updated) };
    });

    scope.delete('/api/v1/voice/:prompt_id', async (req) => {
      const owner = account(req);
      const id = promptId(req);
      if (!store.delete(owner.id, id)) throw new VoiceBankFailure(404, VOICE_ERRORS.notFound);
      log.info({ voicePromptId: id }, 'voice prompt deleted');
      const body: ApiResponse<{ voice_prompt_id: string }> = { success: true, message: 'Voice prompt deleted', data: { voice_prompt_id: id } };
      return body;
    });
  });
}
