/**
 * Usage reporting and live connection counts:
 * - `GET /api/v1/usage/concurrent/by-model?from=YYYY-MM-DD&to=YYYY-MM-DD[&model_id=][&region=]` → the
 *   aggregates of `aggregateUsage` (see `protocol/usage.ts` for their exact definitions) over the metered
 *   intervals of the caller's account; `customerId` is the account id.
 * - `GET /api/v1/usage/concurrent?…same query…` → the same usage as daily rows (`aggregateUsageDaily`).
 * - `GET /api/v1/concurrent_connections/batch?model_ids=a,b` → `{success, message, data: {a: counts, b: counts}}`.
 * - `GET /api/v1/concurrent_connections/{model_id}` → `{success, message, data: counts}`.
 * Failures are `{success:false, message}` (400 invalid dates or model ids, 401 bad key, 404 unknown model).
 * Registering installs the durable {@link SqliteConnectionMeter} as `ctx.meter`.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  aggregateUsage,
  aggregateUsageDaily,
  parseUsageDateRange,
  type ConnectionCounts,
  type ConnectionsBatchResponse,
  type UsageByModelReport,
  type UsageDailyReport,
  type UsageDateRange,
  type UsageInterval,
} from '../../protocol/usage.js';
import type { ApiErrorBody } from '../../protocol/voices.js';
import { Authenticator } from '../auth.js';
import type { AccountConfig } from '../config.js';
import type { ServerContext } from '../context.js';
import { SqliteConnectionMeter } from './meter.js';

class UsageFailure extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

function fail(reply: FastifyReply, status: number, message: string): FastifyReply {
  const body: ApiErrorBody = { success: false, message };
  return reply.code(status).send(body);
}

/** Registers usage reports and concurrent connection counts on `app` and installs the durable meter. */
export function registerUsage(app: FastifyInstance, ctx: ServerContext): void {
  const log = ctx.logger.child({ area: 'usage' });
  const meter = new SqliteConnectionMeter(ctx.db);
  const abandoned = meter.closeAbandoned();
  if (abandoned > 0) log.warn({ intervals: abandoned }, 'closed metered intervals left open by a previous run');
  ctx.meter = meter;

  const account = (req: FastifyRequest): AccountConfig => {
    const found = ctx.auth.account(Authenticator.keyFrom(req.headers, undefined, false));
    if (!found) throw new UsageFailure(401, 'Unauthorized: invalid or missing API key');
    return found;
  };
  const modelsOf = (owner: AccountConfig): Set<string> =>
    new Set(ctx.config.models.map((m) => m.id).filter((id) => owner.models.length === 0 || owner.models.includes(id)));
  const counts = (live: Map<string, number>, modelId: string): ConnectionCounts => {
    const n = live.get(modelId) ?? 0;
    return { concurrent_connections: n, desired_concurrent_connections: n };
  };

  void app.register(async (scope) => {
    scope.setErrorHandler((error: Error & { statusCode?: number }, _req, reply) => {
      if (error instanceof UsageFailure) return fail(reply, error.status, error.message);
      if (error.statusCode !== undefined && error.statusCode < 500) return fail(reply, error.statusCode, error.message);
      log.error({ err: error }, 'usage request failed');
      return fail(reply, 500, 'Internal server error');
    });

    /** The caller's account, the validated range and its intervals, for both usage reports. */
    const usageQuery = (req: FastifyRequest): { owner: AccountConfig; range: UsageDateRange; intervals: UsageInterval[] } => {
      const owner = account(req);
      const query = req.query as Record<string, string | undefined>;
      const parsed = parseUsageDateRange(query.from, query.to);
      if (!parsed.ok) throw new UsageFailure(400, parsed.message);
      const { range } = parsed;
      const filter = { modelId: query.model_id || undefined, region: query.region || undefined };
      return { owner, range, intervals: meter.intervals(owner.id, range.startMs, range.endMs, filter) };
    };

    scope.get('/api/v1/usage/concurrent/by-model', async (req) => {
      const { owner, range, intervals } = usageQuery(req);
      const body: UsageByModelReport = { customerId: owner.id, from: range.from, to: range.to, items: aggregateUsage(intervals, range, meter.now()) };
      return body;
    });

    scope.get('/api/v1/usage/concurrent', async (req) => {
      const { owner, range, intervals } = usageQuery(req);
      const body: UsageDailyReport = { customerId: owner.id, from: range.from, to: range.to, items: aggregateUsageDaily(intervals, range, meter.now(), owner.id) };
      return body;
    });

    scope.get('/api/v1/concurrent_connections/batch', async (req) => {
      const owner = account(req);
      const raw = (req.query as { model_ids?: string }).model_ids ?? '';
      const ids = [...new Set(raw.split(',').map((s) => s.trim()).filter(Boolean))];
      if (ids.length === 0) throw new UsageFailure(400, 'Invalid model IDs: model_ids is required (comma-separated model identifiers)');
      const known = modelsOf(owner);
      const unknown = ids.filter((id) => !known.has(id));
      if (unknown.length > 0) throw new UsageFailure(400, `Invalid model IDs: ${unknown.join(', ')}`);
      const live = meter.liveCounts(owner.id);
      const body: ConnectionsBatchResponse = {
        success: true,
        message: 'Operation successful',
        data: Object.fromEntries(ids.map((id) => [id, counts(live, id)])),
      };
      return body;
    });

    scope.get('/api/v1/concurrent_connections/:model_id', async (req) => {
      const owner = account(req);
      const { model_id: modelId } = req.params as { model_id: string };
      if (!modelsOf(owner).has(modelId)) throw new UsageFailure(404, 'Model not found');
      return { success: true, message: 'Operation successful', data: counts(meter.liveCounts(owner.id), modelId) };
    });
  });
}
