/**
 * Registers the complete-text socket `/open`: each message is one `text-to-speech` request, answered by an
 * empty acknowledgement `{data:"", generationId, isFinished:false}` and then chunks `{index, generationId,
 * data, isFinished}` (the last has isFinished true). Several requests may run at once on one socket (up to
 * `OPEN_LIMITS.maxConcurrentRequests`). Failures are `{error, errorType, generationId}`.
 */
import type { FastifyInstance } from 'fastify';
import type { WebSocket } from 'ws';
import { frameToString } from '../../protocol/speech.js';
import { OPEN_LIMITS, openRequestSchema, type OpenChunkMessage, type OpenErrorMessage, type OpenErrorType } from '../../protocol/open.js';
import { Authenticator } from '../auth.js';
import type { AccountConfig } from '../config.js';
import type { ServerContext } from '../context.js';
import { renderSegments } from '../speech/render.js';
import { resolveSettings, speakText } from '../speech/settings.js';

/** Registers `/open` (the `_app` parameter keeps the area signature uniform). */
export function registerOpenSocket(_app: FastifyInstance, ctx: ServerContext): void {
  ctx.ws.add<AccountConfig>({
    match: (pathname) => (pathname === '/open' ? {} : undefined),
    accept: (req, url) => {
      const account = ctx.auth.account(Authenticator.keyFrom(req.headers, url, true));
      return account ? { accept: account } : { reject: 401, message: 'unauthorized: invalid or missing API key' };
    },
    connected: (ws, _req, account) => serveOpenSocket(ws, ctx, account),
  });
}

function serveOpenSocket(ws: WebSocket, ctx: ServerContext, account: AccountConfig): void {
  const meter = ctx.meter.open(account.id, account.region);
  const inFlight = new Map<string, AbortController>();
  const log = ctx.logger.child({ area: 'open', account: account.id });
  const send = (message: OpenChunkMessage | OpenErrorMessage): void => {
    if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(message));
  };
  const fail = (error: string, errorType: OpenErrorType, generationId?: string): void => send({ error, errorType, ...(generationId ? { generationId } : {}) });

  ws.on('message', (data) => {
    let raw: unknown;
    try {
      raw = JSON.parse(frameToString(data as Buffer));
    } catch {
      return fail('Invalid message format', 'InvalidInput');
    }
    const generationId = typeof (raw as { generationId?: unknown })?.generationId === 'string' ? (raw as { generationId: string }).generationId : undefined;
    const parsed = openRequestSchema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return fail(issue ? `${issue.path.join('.') || 'message'}: ${issue.message}` : 'invalid request', 'InvalidInput', generationId);
    }
    const request = parsed.data;
    if (request.targetText.trim() === '') return fail('targetText is empty', 'InvalidInput', request.generationId);
    if (request.targetText.length > OPEN_LIMITS.maxTextChars) return fail(`targetText exceeds ${OPEN_LIMITS.maxTextChars} characters`, 'MaxExceeded', request.generationId);
    if (inFlight.has(request.generationId)) return fail(`generationId ${request.generationId} is already in progress`, 'InvalidInput', request.generationId);
    if (inFlight.size >= OPEN_LIMITS.maxConcurrentRequests) return fail(`at most ${OPEN_LIMITS.maxConcurrentRequests} requests may be in flight on one socket`, 'MaxExceeded', request.generationId);
    const settings = resolveSettings(
      {
        model: request.model,
        realtime: false,
        ...(request.voicePromptId ? { voicePromptId: request.voicePromptId } : {}),
        ...(request.locale ? { locale: request.locale } : {}),
        ...(request.format ? { format: request.format } : {}),
        ...(request.sampleRate ? { sampleRate: request.sampleRate } : {}),
      },
      undefined,
      { config: ctx.config, account, voices: ctx.voices },
    );
    if (!settings.ok) return fail(settings.error, 'InvalidInput', request.generationId);
    meter.setModel(request.model);
    const controller = new AbortController();
    inFlight.set(request.generationId, controller);
    send({ data: '', generationId: request.generationId, isFinished: false });
    void (async () => {
      let index = 0;
      try {
        const segments = speakText(request.targetText, settings.settings, account.id, ctx);
        for await (const piece of renderSegments(segments, settings.settings, { synthesizer: ctx.synthesizer, voices: ctx.voices, accountId: account.id }, controller.signal)) {
          send({ index: index++, generationId: request.generationId, data: piece.data.toString('base64'), isFinished: false });
        }
        if (!controller.signal.aborted) send({ index, generationId: request.generationId, data: '', isFinished: true });
      } catch (error) {
        log.warn({ generationId: request.generationId, err: (error as Error).message }, 'open request failed');
        fail((error as Error).message, 'InvalidInput', request.generationId);
      } finally {
        inFlight.delete(request.generationId);
      }
    })();
  });
  ws.on('close', () => {
    for (const c of inFlight.values()) c.abort();
    meter.close();
  });
}
