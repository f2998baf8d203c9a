/**
 * Client of usage reporting and live connection counts: `GET /api/v1/usage/concurrent/by-model`,
 * `GET /api/v1/usage/concurrent` (daily rows) and `GET /api/v1/concurrent_connections/batch`. Dates are checked before any I/O with the same rules the
 * service applies (`InvalidArgumentError`); service refusals are typed HTTP errors.
 */
import { InvalidArgumentError } from '../errors.js';
import {
  connectionsBatchResponseSchema,
  parseUsageDateRange,
  usageByModelReportSchema,
  utcDate,
  type ConnectionCounts,
  usageDailyReportSchema,
  type UsageByModelReport,
  type UsageDailyReport,
} from '../protocol/usage.js';
import { HttpClient, type HttpClientOptions } from './http.js';
import { expectResponse } from './response.js';
import type { CallOptions } from './voices.js';

/** Query of {@link UsageClient.byModel}: inclusive UTC dates as `YYYY-MM-DD` strings or Dates. */
export interface UsageByModelQuery {
  from: string | Date;
  to: string | Date;
  modelId?: string;
  region?: string;
}

/** Typed client of usage and connection counts. */
export class UsageClient {
  readonly #http: HttpClient;

  /** Takes the shared HTTP options (base URL, key, retries) or an existing {@link HttpClient}. */
  constructor(options: HttpClientOptions | HttpClient) {
    this.#http = options instanceof HttpClient ? options : new HttpClient(options);
  }

  /** Concurrent-usage aggregates per model and region over an inclusive date range (at most 366 days). */
  async byModel(query: UsageByModelQuery, options: CallOptions = {}): Promise<UsageByModelReport> {
    const body = await this.#usage('/api/v1/usage/concurrent/by-model', query, options);
    return expectResponse(usageByModelReportSchema, body, 'usage by model');
  }

  /** The same usage as daily rows (date, model, region) over an inclusive date range. */
  async daily(query: UsageByModelQuery, options: CallOptions = {}): Promise<UsageDailyReport> {
    const body = await this.#usage('/api/v1/usage/concurrent', query, options);
    return expectResponse(usageDailyReportSchema, body, 'daily usage');
  }

  #usage(path: string, query: UsageByModelQuery, options: CallOptions): Promise<unknown> {
    const from = query.from instanceof Date ? utcDate(query.from.getTime()) : query.from;
    const to = query.to instanceof Date ? utcDate(query.to.getTime()) : query.to;
    const checked = parseUsageDateRange(from, to);
    if (!checked.ok) return Promise.reject(new InvalidArgumentError(checked.message));
    return this.#http.request<unknown>({ method: 'GET', path, query: { from, to, model_id: query.modelId, region: query.region }, signal: options.signal });
  }

  /** Live connection counts of several models at once, keyed by model id. */
  async connections(modelIds: readonly string[], options: CallOptions = {}): Promise<Record<string, ConnectionCounts>> {
    const ids = modelIds.map((id) => id.trim()).filter(Boolean);
    if (ids.length === 0) throw new InvalidArgumentError('connections needs at least one model id');
    const body = await this.#http.request<unknown>({
      method: 'GET',
      path: '/api/v1/concurrent_connections/batch',
      query: { model_ids: ids.join(',') },
      signal: options.signal,
    });
    return expectResponse(connectionsBatchResponseSchema, body, 'concurrent connections').data;
  }
}
