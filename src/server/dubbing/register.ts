/**
 * Managed dubbing jobs under /dubbing (host {base_url}; the reference service serves it on its one port):
 *
 * | Method | Path | Answer |
 * |---|---|---|
 * | POST | `/dubbing/job` | `{requestId}` once the body and the source video are validated and the job is queued |
 * | GET | `/dubbing/job/{request_id}` | status record |
 * | PUT | `/dubbing/job/{request_id}` | status record after applying `needByDate` / `metadata` (metadata is replaced) |
 * | PATCH | `/dubbing/job/{request_id}` | `{requestId}` (the job's id) once feedback starts a refix; 409 unless delivered |
 * | DELETE | `/dubbing/job/{request_id}` | status record; the job is cancelled for good (status FAILURE, left out of lists) |
 * | POST | `/dubbing/job/{request_id}/sources` | status record after attaching an additional source |
 * | GET | `/dubbing/jobs?next_token=&limit=` | `{items, nextToken?}`, newest first; `limit` (1–100, default 25) is an extension |
 * | POST | `/dubbing/admin/job/{request_id}/advance` | `{requestId, status, decision, next}`: approve/reject a job parked for review |
 *
 * Errors are FastAPI-shaped: 422 `{detail: [{loc, msg, type}]}` (`loc` starts with `body`, `query` or `path`),
 * otherwise `{detail: "message"}` with 401 (missing/unknown key), 403 (dubbing not enabled), 404 (unknown job,
 * or another account's; `{detail: "Not Found"}` for unknown paths under /dubbing), 409 (job state forbids the
 * operation). See settings.ts for the environment variables and docs/dubbing.md for the whole area.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { VoxpipeError } from '../../errors.js';
import {
  dubbingAdditionalSourceSchema,
  DUBBING_DELIVERED_STATUSES,
  dubbingAdvanceSchema,
  dubbingJobRequestSchema,
  dubbingJobUpdateSchema,
  redubbingRequestSchema,
  type DubbingJobCreated,
  type DubbingJobList,
  type DubbingValidationErrorBody,
  type RedubbingSubmitted,
} from '../../protocol/dubbing.js';
import type { AccountConfig } from '../config.js';
import { Authenticator } from '../auth.js';
import type { ServerContext } from '../context.js';
import { advanceDubbingJob } from './admin.js';
import { validationBody, valueErrorBody } from './fastapi-errors.js';
import { decodePageToken, encodePageToken } from './page-token.js';
import { audioExportPath, DubbingProducer } from './production.js';
import { DubbingRunner } from './runner.js';
import { dubbingSettingsFromEnv } from './settings.js';
import { inspectSourceVideo, SourceVideoError } from './source-video.js';
import { DubbingStore, type JobRow } from './store.js';
import { isGated } from './workflow.js';

type IdRequest = FastifyRequest<{ Params: { request_id: string } }>;

/** Longest dubbed track the reference service produces: 6 hours (a 2 GB WAV). */
export const MAX_TRACK_MS = 6 * 3_600_000;

declare module 'fastify' {
  interface FastifyRequest {
    /** The account of the request's API key (set by the dubbing area's auth hook). */
    dubbingAccount?: AccountConfig;
  }
}

/** Parses `value` (found at `loc`) with `schema`, or sends the 422 and returns undefined. */
function parseOr422<S extends z.ZodType>(schema: S, value: unknown, loc: string[], reply: FastifyReply): z.output<S> | undefined {
  const parsed = schema.safeParse(value, { reportInput: true });
  if (parsed.success) return parsed.data;
  void reply.code(422).send(validationBody(parsed.error, loc));
  return undefined;
}

function notFound(reply: FastifyReply, requestId: string): FastifyReply {
  return reply.code(404).send({ detail: `Dubbing job ${requestId} not found` });
}

/** Registers managed dubbing jobs under /dubbing on `app`. */
export function registerDubbing(app: FastifyInstance, ctx: ServerContext): void {
  const settings = dubbingSettingsFromEnv();
  const log = ctx.logger.child({ area: 'dubbing' });
  const store = new DubbingStore(ctx.db);
  const producer = new DubbingProducer({
    dataDir: ctx.dataDir,
    voices: ctx.config.voices,
    store,
    progressIntervalMs: settings.progressIntervalMs,
    get synthesizer() {
      return ctx.synthesizer; // read at use: the engine may be swapped on the context (tests use a tone engine)
    },
  });
  const runner = new DubbingRunner(store, producer, settings, log);
  ctx.onClose(() => runner.close());
  runner.start();

  /** The caller's job `request_id`, or a 404 sent. */
  const jobOf = (req: IdRequest, reply: FastifyReply): JobRow | undefined => {
    const job = store.get(req.params.request_id, req.dubbingAccount?.id);
    if (!job) void notFound(reply, req.params.request_id);
    return job;
  };
  const refuseCancelled = (job: JobRow, reply: FastifyReply): boolean => {
    if (job.cancelled) void reply.code(409).send({ detail: `Dubbing job ${job.requestId} was cancelled` });
    return job.cancelled;
  };

  void app.register(async (scope) => {
    scope.addHook('onRequest', async (req, reply) => {
      const account = ctx.auth.account(Authenticator.keyFrom(req.headers, undefined, false));
      if (!account) return reply.code(401).send({ detail: 'unauthorized: invalid or missing API key' });
      if (!account.features.includes('dubbing')) return reply.code(403).send({ detail: 'dubbing is not enabled for this account' });
      req.dubbingAccount = account;
    });

    scope.setErrorHandler((error: Error & { statusCode?: number; code?: string }, _req, reply) => {
      if (error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY') return reply.code(422).send({ detail: [{ loc: ['body'], msg: 'Field required', type: 'missing' }] } satisfies DubbingValidationErrorBody);
      if (error.statusCode === 400 && (error instanceof SyntaxError || error.code?.startsWith('FST_ERR_CTP'))) {
        return reply.code(422).send({ detail: [{ loc: ['body', 0], msg: 'JSON decode error', type: 'json_invalid' }] } satisfies DubbingValidationErrorBody);
      }
      if (error.statusCode !== undefined && error.statusCode < 500) return reply.code(error.statusCode).send({ detail: error.message });
      log.error({ err: error }, 'dubbing request failed');
      return reply.code(500).send({ detail: 'Internal Server Error' });
    });
    scope.setNotFoundHandler((_req, reply) => reply.code(404).send({ detail: 'Not Found' }));

    scope.post('/job', async (req, reply) => {
      const request = parseOr422(dubbingJobRequestSchema, req.body, ['body'], reply);
      if (!request) return reply;
      let source;
      try {
        source = await inspectSourceVideo(request.sourceVideoPath, settings);
      } catch (error) {
        if (error instanceof SourceVideoError) return reply.code(422).send(valueErrorBody(['body', 'sourceVideoPath'], error.message));
        throw error;
      }
      const durationMs = source.durationMs;
      if (durationMs !== undefined && durationMs > MAX_TRACK_MS) {
        return reply.code(422).send(valueErrorBody(['body', 'sourceVideoPath'], `the source video lasts ${durationMs} ms, more than the ${MAX_TRACK_MS} ms the reference service dubs`));
      }
      const limit = durationMs ?? MAX_TRACK_MS;
      const late = (request.segments ?? []).findIndex((s) => s.timestampEnd > limit);
      const segment = request.segments?.[late];
      if (segment) {
        const why = durationMs === undefined ? `more than the ${MAX_TRACK_MS} ms the reference service dubs` : `after the end of the source video (${durationMs} ms)`;
        return reply.code(422).send(valueErrorBody(['body', 'segments', late, 'timestampEnd'], `segment ends at ${segment.timestampEnd} ms, ${why}`));
      }
      const requestId = randomUUID();
      const exportPath = audioExportPath(request.exportPath ?? `s3://voxpipe-dubbing/${requestId}/dubbed.${request.targetLocale}.wav`);
      const size = source.sizeBytes === undefined ? '' : `, ${source.sizeBytes} bytes`;
      store.create({
        requestId,
        accountId: req.dubbingAccount?.id ?? '',
        request,
        source,
        exportPath,
        status: 'INTAKE_PREPROCESSING',
        trace: [`job queued: source video recognised as ${source.container} (${source.headBytes} bytes read${size})`],
      });
      log.info({ requestId, workflowType: request.workflowType }, 'dubbing job queued');
      runner.kick();
      return { requestId } satisfies DubbingJobCreated;
    });

    scope.get('/job/:request_id', async (req: IdRequest, reply) => {
      const job = jobOf(req, reply);
      return job ? store.statusRecord(job) : reply;
    });

    scope.put('/job/:request_id', async (req: IdRequest, reply) => {
      const update = parseOr422(dubbingJobUpdateSchema, req.body, ['body'], reply);
      if (!update) return reply;
      const job = jobOf(req, reply);
      if (!job || refuseCancelled(job, reply)) return reply;
      store.update(job.requestId, update);
      return store.statusRecord(store.get(job.requestId) ?? job);
    });

    scope.patch('/job/:request_id', async (req: IdRequest, reply) => {
      const feedback = parseOr422(redubbingRequestSchema, req.body, ['body'], reply);
      if (!feedback) return reply;
      const job = jobOf(req, reply);
      if (!job || refuseCancelled(job, reply)) return reply;
      if (!DUBBING_DELIVERED_STATUSES.includes(job.status)) {
        return reply.code(409).send({ detail: `Dubbing job ${job.requestId} is ${job.status}: feedback is accepted only once it is delivered (${DUBBING_DELIVERED_STATUSES.join(', ')})` });
      }
      if (feedback.revisionNumber !== undefined && feedback.revisionNumber <= job.revision) {
        return reply.code(422).send(valueErrorBody(['body', 'revisionNumber'], `revisionNumber must be greater than the current revision ${job.revision}`));
      }
      const durationMs = job.plan.durationMs ?? 0;
      const outside = feedback.issues.findIndex((issue) => issue.timestampStart > durationMs);
      if (outside >= 0) {
        return reply.code(422).send(valueErrorBody(['body', 'issues', outside, 'timestampStart'], `the issue starts after the end of the dubbed track (${durationMs} ms)`));
      }
      const exportPath = feedback.exportPath === undefined ? job.exportPath : audioExportPath(feedback.exportPath);
      const status = 'CLIENT_REFIX_PROCESSING';
      const gated = isGated(status, job.workflowType);
      const revision = store.startRevision(job, feedback, exportPath, status, gated, [
        `feedback received with ${feedback.issues.length} issue(s): resynthesis workflow started`,
        ...(gated ? ['waiting for a review decision (approve or reject)'] : []),
      ]);
      log.info({ requestId: job.requestId, revision }, 'dubbing refix started');
      runner.kick();
      return { requestId: job.requestId } satisfies RedubbingSubmitted;
    });

    scope.delete('/job/:request_id', async (req: IdRequest, reply) => {
      const job = jobOf(req, reply);
      if (!job) return reply;
      if (!job.cancelled) store.cancel(job.requestId);
      return store.statusRecord(store.get(job.requestId) ?? job);
    });

    scope.post('/job/:request_id/sources', async (req: IdRequest, reply) => {
      const source = parseOr422(dubbingAdditionalSourceSchema, req.body, ['body'], reply);
      if (!source) return reply;
      const job = jobOf(req, reply);
      if (!job || refuseCancelled(job, reply)) return reply;
      store.addSource(job.requestId, job.status, source);
      return store.statusRecord(job);
    });

    scope.get('/jobs', async (req: FastifyRequest<{ Querystring: { next_token?: string; limit?: string } }>, reply) => {
      let before: number | undefined;
      if (req.query.next_token !== undefined) {
        before = decodePageToken(req.query.next_token);
        if (before === undefined) return reply.code(422).send(valueErrorBody(['query', 'next_token'], 'next_token is not a token returned by this service'));
      }
      let limit = settings.pageSize;
      if (req.query.limit !== undefined) {
        limit = Number(req.query.limit);
        if (!/^\d+$/.test(req.query.limit) || limit < 1 || limit > settings.maxPageSize) {
          return reply.code(422).send({
            detail: [{ loc: ['query', 'limit'], msg: `Input should be an integer from 1 to ${settings.maxPageSize}`, type: 'int_parsing' }],
          } satisfies DubbingValidationErrorBody);
        }
      }
      const rows = store.list(req.dubbingAccount?.id ?? '', before, limit + 1);
      const page = rows.slice(0, limit);
      const last = page.at(-1);
      const body: DubbingJobList = { items: page.map((job) => store.statusRecord(job)) };
      if (rows.length > limit && last) body.nextToken = encodePageToken(last.seq);
      return body;
    });

    scope.post('/admin/job/:request_id/advance', async (req: IdRequest, reply) => {
      const body = parseOr422(dubbingAdvanceSchema, req.body ?? {}, ['body'], reply);
      if (!body) return reply;
      try {
        const result = advanceDubbingJob(store, req.params.request_id, body.decision, req.dubbingAccount?.id);
        runner.kick();
        return result;
      } catch (error) {
        if (error instanceof VoxpipeError && error.status !== undefined) return reply.code(error.status).send({ detail: error.message });
        throw error;
      }
    });
  }, { prefix: '/dubbing' });
}
