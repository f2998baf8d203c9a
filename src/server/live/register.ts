/**
 * The live API under /live: services CRUD, status/start/stop, the enum endpoints, the caption outputs of running
 * services (public HLS WebVTT playlists at `/live/services/{id}/captions/{lang}/playlist.m3u8` and `{seq}.vtt`,
 * like a CDN output: no key) and the captions socket. Every other route needs `x-api-key` (401), the account's
 * `live` feature (403; see {@link liveAccess} for regions) and passes a per-key token bucket (429, `VOXPIPE_LIVE_RATE`/`VOXPIPE_LIVE_BURST`).
 * `VOXPIPE_LIVE_RELOAD_MS` fixes the playlist reload interval and `VOXPIPE_CAPTIONS_HEARTBEAT_MS` (default 5000) the
 * socket heartbeat.
 * Services persist in SQLite; services left running resume when the server starts.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  LIVE_BUILD_VERSIONS,
  LIVE_INPUT_STREAM_TYPES,
  LIVE_LIST_SCOPES,
  LIVE_TRANSLATION_LANGUAGES,
  LIVE_TTS_ENGINES,
  liveServiceConfigSchema,
  type LiveService,
  type LiveServiceConfig,
  type LiveServiceList,
  type LiveStatus,
} from '../../protocol/live.js';
import { Authenticator } from '../auth.js';
import type { AccountConfig } from '../config.js';
import type { ServerContext } from '../context.js';
import { liveAccess, serverRegion } from './access.js';
import { captionsPlaylistPath } from './caption-output.js';
import { registerCaptionsSocket } from './captions-socket.js';
import { compatibleOutputs, engineEnabled, validateAgainstEnums, voicesFor } from './enums.js';
import { capMessage, LiveFailure } from './failure.js';
import { BuiltinPipelineProvider, type LivePipelineProvider } from './pipeline.js';
import { KeyedTokenBucket, positiveFromEnv, rateLimitFromEnv } from './rate-limit.js';
import { LiveRuntime } from './runtime.js';
import { LiveServiceStore, type StoredLiveService } from './store.js';

/** Default and largest `perPage` of the list. */
export const LIVE_LIST_DEFAULT_PER_PAGE = 20;
const LIVE_LIST_MAX_PER_PAGE = 100;

const toWire = (s: StoredLiveService): LiveService => ({ id: s.id, serviceId: s.id, config: s.config, state: s.state, createdAt: s.createdAt, updatedAt: s.updatedAt });


/** Options of {@link registerLive}. */
export interface LiveOptions {
  /** The pipeline behind services. Default {@link BuiltinPipelineProvider}. */
  provider?: LivePipelineProvider;
}

/** Registers live services, enums and the captions socket under /live on `app`. */
export function registerLive(app: FastifyInstance, ctx: ServerContext, options: LiveOptions = {}): void {
  const log = ctx.logger.child({ area: 'live' });
  const store = new LiveServiceStore(ctx.db);
  const reloadMs = positiveFromEnv('VOXPIPE_LIVE_RELOAD_MS');
  const runtime = new LiveRuntime(options.provider ?? new BuiltinPipelineProvider({ logger: ctx.logger, reloadMs }));
  const limiter = new KeyedTokenBucket(rateLimitFromEnv());
  const region = serverRegion();
  ctx.onClose(() => runtime.close());
  for (const s of store.running()) {
    void runtime.start(s.id, s.config);
    log.info({ serviceId: s.id }, 'live service resumed');
  }
  registerCaptionsSocket(ctx, store, { region, heartbeatMs: positiveFromEnv('VOXPIPE_CAPTIONS_HEARTBEAT_MS') ?? 5000, reloadMs });

  const accounts = new WeakMap<FastifyRequest, AccountConfig>();
  const account = (req: FastifyRequest): AccountConfig => accounts.get(req) as AccountConfig;
  const service = (req: FastifyRequest): StoredLiveService => {
    const raw = (req.params as { id?: string }).id ?? '';
    const found = /^\d{1,15}$/.test(raw) ? store.get(account(req).id, Number(raw)) : undefined;
    if (!found) throw new LiveFailure(404, 'not_found', `live service ${raw} not found`);
    return found;
  };
  const parseConfig = (req: FastifyRequest): LiveServiceConfig => {
    const parsed = liveServiceConfigSchema.safeParse(req.body);
    if (!parsed.success) {
      const detail = parsed.error.issues.map((i) => ({ loc: ['body', ...i.path.map((p) => (typeof p === 'number' ? p : String(p)))], msg: i.message, type: i.code }));
      throw new LiveFailure(400, 'bad_request', `invalid request body: ${detail.map((d) => `${d.loc.slice(1).join('.') || '(body)'}: ${d.msg}`).join('; ')}`, { detail });
    }
    const upstream = validateAgainstEnums(parsed.data, account(req), ctx.config.voices);
    if (upstream) {
      const detail = upstream.errors.map((e) => ({ loc: ['body', ...e.field.split(/[.[\]]+/).filter(Boolean)], msg: e.message, type: e.code }));
      throw new LiveFailure(422, 'validation_failed', `config failed validation upstream: ${upstream.errors.map((e) => e.message).join('; ')}`, { upstream, detail });
    }
    return parsed.data;
  };
  const status = (req: FastifyRequest, s: StoredLiveService): LiveStatus => {
    const origin = `${req.protocol}://${req.headers.host ?? 'localhost'}`;
    const run = runtime.status(s.id);
    return {
      serviceId: s.id,
      state: s.state,
      active: run.active,
      inputConnected: run.inputConnected,
      startedAt: s.startedAt,
      captions: Object.fromEntries(s.config.translations.map((t) => [t.language, origin + captionsPlaylistPath(s.id, t.language)])),
      lastError: run.lastError,
    };
  };

  // Caption outputs: public, like a CDN.
  app.get('/live/services/:id/captions/:lang/playlist.m3u8', async (req, reply) => {
    const { id, lang } = req.params as { id: string; lang: string };
    const output = runtime.captions(Number(id), lang);
    if (!output) return reply.code(404).send({ message: 'no caption output', code: 'not_found' });
    return reply.header('content-type', 'application/vnd.apple.mpegurl').header('cache-control', 'no-cache').send(output.playlist());
  });
  app.get('/live/services/:id/captions/:lang/:segment', async (req, reply) => {
    const { id, lang, segment } = req.params as { id: string; lang: string; segment: string };
    const m = /^(\d+)\.vtt$/.exec(segment);
    const body = m ? runtime.captions(Number(id), lang)?.segment(Number(m[1])) : undefined;
    if (body === undefined) return reply.code(404).send({ message: 'no such segment', code: 'not_found' });
    return reply.header('content-type', 'text/vtt; charset=utf-8').send(body);
  });

  void app.register(async (scope) => {
    scope.addHook('onRequest', async (req) => {
      const key = Authenticator.keyFrom(req.headers, undefined, false) ?? '';
      const access = liveAccess(ctx, key, region);
      if ('status' in access) throw new LiveFailure(access.status, access.code, access.message);
      const waitMs = limiter.take(key);
      if (waitMs > 0) throw new LiveFailure(429, 'rate_limited', 'rate limit exceeded', {}, waitMs);
      accounts.set(req, access.account);
    });
    scope.setErrorHandler((error: Error & { statusCode?: number }, _req, reply: FastifyReply) => {
      if (error instanceof LiveFailure) {
        if (error.retryAfterMs !== undefined) void reply.header('retry-after', String(Math.ceil(error.retryAfterMs / 1000)));
        return reply.code(error.status).send(error.body);
      }
      if (error.statusCode !== undefined && error.statusCode < 500) return reply.code(400).send({ message: `invalid request: ${error.message}`, code: 'bad_request' });
      log.error({ err: error }, 'live request failed');
      return reply.code(500).send({ message: 'internal error', code: 'server_error' });
    });

    scope.get('/live/services', async (req): Promise<LiveServiceList> => {
      const q = req.query as { page?: string; perPage?: string; search?: string; scope?: string };
      const page = q.page === undefined ? 1 : Number(q.page);
      const perPage = q.perPage === undefined ? LIVE_LIST_DEFAULT_PER_PAGE : Number(q.perPage);
      if (!Number.isInteger(page) || page < 1) throw new LiveFailure(400, 'bad_request', 'page must be a positive integer');
      if (!Number.isInteger(perPage) || perPage < 1 || perPage > LIVE_LIST_MAX_PER_PAGE) throw new LiveFailure(400, 'bad_request', `perPage must be an integer from 1 to ${LIVE_LIST_MAX_PER_PAGE}`);
      const scopeName = q.scope ?? 'all';
      if (!(LIVE_LIST_SCOPES as readonly string[]).includes(scopeName)) throw new LiveFailure(400, 'bad_request', `scope must be one of ${LIVE_LIST_SCOPES.join(', ')}`);
      const all = store.list(account(req).id, { state: scopeName === 'all' ? undefined : (scopeName as 'running' | 'stopped'), search: q.search });
      return { items: all.slice((page - 1) * perPage, page * perPage).map(toWire), page, perPage, total: all.length };
    });
    scope.get('/live/services/:id', async (req) => toWire(service(req)));
    scope.post('/live/services', async (req, reply) => {
      const config = parseConfig(req);
      const owner = account(req);
      if (store.count(owner.id) >= owner.liveServiceCap) throw new LiveFailure(403, 'service_cap_reached', capMessage(owner.liveServiceCap));
      const created = store.create(owner.id, config);
      log.info({ serviceId: created.id }, 'live service created');
      return reply.code(201).send(toWire(created));
    });
    scope.put('/live/services/:id', async (req) => {
      const existing = service(req);
      const config = parseConfig(req);
      const updated = store.replaceConfig(existing.accountId, existing.id, config) as StoredLiveService;
      if (updated.state === 'running') await runtime.start(updated.id, updated.config);
      return toWire(updated);
    });
    scope.delete('/live/services/:id', async (req, reply) => {
      const existing = service(req);
      await runtime.stop(existing.id);
      store.delete(existing.accountId, existing.id);
      log.info({ serviceId: existing.id }, 'live service deleted');
      return reply.code(204).send();
    });
    scope.get('/live/services/:id/status', async (req) => status(req, service(req)));
    scope.post('/live/services/:id/start', async (req) => {
      const existing = service(req);
      if (!runtime.isRunning(existing.id)) await runtime.start(existing.id, existing.config);
      const updated = existing.state === 'running' ? existing : (store.setState(existing.accountId, existing.id, 'running') as StoredLiveService);
      return toWire(updated);
    });
    scope.post('/live/services/:id/stop', async (req) => {
      const existing = service(req);
      await runtime.stop(existing.id);
      const updated = existing.state === 'stopped' ? existing : (store.setState(existing.accountId, existing.id, 'stopped') as StoredLiveService);
      return toWire(updated);
    });

    scope.get('/live/enums/build-versions', async () => ({ items: [...LIVE_BUILD_VERSIONS] }));
    scope.get('/live/enums/input-stream-types', async () => ({ items: [...LIVE_INPUT_STREAM_TYPES] }));
    scope.get('/live/enums/output-stream-types/:input', async (req) => {
      const { input } = req.params as { input: string };
      const outputs = compatibleOutputs(input);
      if (!outputs) throw new LiveFailure(404, 'not_found', `unknown input stream type ${input}`);
      return { items: [...outputs] };
    });
    scope.get('/live/enums/translation-languages', async () => ({ items: [...LIVE_TRANSLATION_LANGUAGES] }));
    scope.get('/live/enums/translation-tts-engines', async (req) => ({
      items: LIVE_TTS_ENGINES.map((e) => ({ id: e.id, thirdParty: e.thirdParty, enabled: engineEnabled(account(req), e.id) })),
    }));
    scope.get('/live/enums/translation-tts-voices/:language/:engine', async (req) => {
      const { language, engine } = req.params as { language: string; engine: string };
      const voices = voicesFor(ctx.config.voices, language, engine);
      if (!voices) throw new LiveFailure(404, 'not_found', `no voices for ${language}/${engine}`);
      return voices;
    });
  });
}
