/**
 * Typed client of managed dubbing jobs (`/dubbing/job*`, host {base_url}): create, get, update, list (one page
 * or every job through an async iterator), feedback, cancel, attach sources, the reference service's admin
 * review decision, and {@link DubbingClient.waitFor}, which polls a job until it reaches a wanted status.
 * Validation failures reject with `ValidationError` whose `details` are the FastAPI `{loc, msg, type}` items.
 */
import { AbortError, TimeoutError, VoxpipeError } from '../errors.js';
import {
  DUBBING_FAILURE_STATUSES,
  DUBBING_STATUS_PROGRESS,
  DUBBING_TERMINAL_STATUSES,
  type DubbingAdditionalSource,
  type DubbingJobCreated,
  type DubbingJobList,
  type DubbingJobRequest,
  type DubbingJobStatus,
  type DubbingJobStatusName,
  type DubbingJobUpdate,
  type DubbingReviewDecision,
  type RedubbingRequest,
  type RedubbingSubmitted,
} from '../protocol/dubbing.js';
import { HttpClient, sleep, type HttpClientOptions } from './http.js';

/** A dubbing job ended in a failure status (INTAKE_FAILED, FAILURE) while being waited for. */
export class DubbingJobFailedError extends VoxpipeError {
  /** The job's status record when the failure was seen. */
  readonly job: DubbingJobStatus;
  constructor(job: DubbingJobStatus) {
    const reason = (job.detailedTrace.trim().split('\n').at(-1) ?? '').replace(/^\S+ [A-Z_]+: /, '');
    super('job_failed', `Dubbing job ${job.requestId} ended in ${job.status}${reason ? `: ${reason}` : ''}`);
    this.job = job;
  }
}

/** Progress reported by {@link DubbingClient.waitFor}. */
export interface DubbingProgress {
  job: DubbingJobStatus;
  /** Rough completion fraction 0…1 of the current status ({@link DUBBING_STATUS_PROGRESS}). */
  fraction: number;
  /** Milliseconds since waiting started. */
  elapsedMs: number;
}

/** Options of {@link DubbingClient.waitFor}. */
export interface WaitForOptions {
  /**
   * Status(es) to wait for, or a predicate. Default: delivered (DELIVERED_TO_CLIENT or REDELIVERED_TO_CLIENT).
   * Waiting also ends at any terminal status: failures reject, other terminal statuses resolve.
   */
  until?: DubbingJobStatusName | readonly DubbingJobStatusName[] | ((job: DubbingJobStatus) => boolean);
  signal?: AbortSignal;
  /** Called whenever the status or trace changes (and once at the start). */
  onProgress?: (progress: DubbingProgress) => void;
  /** Poll interval, ms. Default 2000. */
  pollIntervalMs?: number;
  /** Gives up with a TimeoutError after this many ms. Default: no limit. */
  timeoutMs?: number;
}

/** Result of the reference service's admin review decision. */
export interface DubbingAdvanceResult {
  requestId: string;
  status: DubbingJobStatusName;
  decision: DubbingReviewDecision;
  next: DubbingJobStatusName;
}

/** Per-call options. */
export interface DubbingCallOptions {
  signal?: AbortSignal;
}

const path = (requestId: string): string => `/dubbing/job/${encodeURIComponent(requestId)}`;
const isStatusRecord = (value: unknown): value is DubbingJobStatus =>
  typeof value === 'object' && value !== null && typeof (value as DubbingJobStatus).requestId === 'string' && typeof (value as DubbingJobStatus).status === 'string';

/** Client of managed dubbing jobs. */
export class DubbingClient {
  readonly #http: HttpClient;

  /** Takes the options of an {@link HttpClient} (base URL = the dubbing host) or an existing one. */
  constructor(options: HttpClientOptions | HttpClient) {
    this.#http = options instanceof HttpClient ? options : new HttpClient(options);
  }

  /** Submits a job (`POST /dubbing/job`); never retried, so a job is not submitted twice. */
  create(request: DubbingJobRequest, options: DubbingCallOptions = {}): Promise<DubbingJobCreated> {
    return this.#http.request({ method: 'POST', path: '/dubbing/job', body: request, signal: options.signal, maxRetries: 0 });
  }

  /** The job's status record. */
  get(requestId: string, options: DubbingCallOptions = {}): Promise<DubbingJobStatus> {
    return this.#http.request({ method: 'GET', path: path(requestId), signal: options.signal });
  }

  /** Changes `needByDate` and/or replaces `metadata`; resolves to the updated status record. */
  async update(requestId: string, update: DubbingJobUpdate, options: DubbingCallOptions = {}): Promise<DubbingJobStatus> {
    const body = await this.#http.request<unknown>({ method: 'PUT', path: path(requestId), body: update, signal: options.signal });
    // The hosted service's response body is not specified: fall back to reading the job.
    return isStatusRecord(body) ? body : this.get(requestId, options);
  }

  /** One page of jobs, newest first. `limit` is a reference-service extension (1–100). */
  list(options: DubbingCallOptions & { nextToken?: string; limit?: number } = {}): Promise<DubbingJobList> {
    return this.#http.request({ method: 'GET', path: '/dubbing/jobs', query: { next_token: options.nextToken, limit: options.limit }, signal: options.signal });
  }

  /** Every job, page after page; breaking out of the loop stops fetching. */
  async *listAll(options: DubbingCallOptions & { limit?: number } = {}): AsyncGenerator<DubbingJobStatus> {
    let nextToken: string | undefined;
    do {
      const page = await this.list({ ...options, ...(nextToken === undefined ? {} : { nextToken }) });
      yield* page.items;
      nextToken = page.nextToken;
    } while (nextToken);
  }

  /** Submits feedback on a delivered job, starting a resynthesis workflow; resolves to the job's id. */
  feedback(requestId: string, feedback: RedubbingRequest, options: DubbingCallOptions = {}): Promise<RedubbingSubmitted> {
    return this.#http.request({ method: 'PATCH', path: path(requestId), body: feedback, signal: options.signal, maxRetries: 0 });
  }

  /** Cancels a job for good. */
  async cancel(requestId: string, options: DubbingCallOptions = {}): Promise<void> {
    await this.#http.request({ method: 'DELETE', path: path(requestId), signal: options.signal, responseType: 'none' });
  }

  /** Attaches an additional source asset to a job. */
  async addSource(requestId: string, source: DubbingAdditionalSource, options: DubbingCallOptions = {}): Promise<void> {
    await this.#http.request({ method: 'POST', path: `${path(requestId)}/sources`, body: source, signal: options.signal, responseType: 'none', maxRetries: 0 });
  }

  /** Reference service only: approves or rejects a job parked at a human-review status. */
  advance(requestId: string, decision: DubbingReviewDecision = 'approve', options: DubbingCallOptions = {}): Promise<DubbingAdvanceResult> {
    return this.#http.request({ method: 'POST', path: `/dubbing/admin/job/${encodeURIComponent(requestId)}/advance`, body: { decision }, signal: options.signal, maxRetries: 0 });
  }

  /**
   * Polls the job until `until` holds (default: delivered), resolving to its status record. Rejects with
   * {@link DubbingJobFailedError} when the job fails, AbortError on `signal`, TimeoutError after `timeoutMs`.
   */
  async waitFor(requestId: string, options: WaitForOptions = {}): Promise<DubbingJobStatus> {
    const until = options.until ?? ['DELIVERED_TO_CLIENT', 'REDELIVERED_TO_CLIENT'];
    const matches = typeof until === 'function' ? until : (job: DubbingJobStatus) => (typeof until === 'string' ? [until] : until).includes(job.status);
    const started = Date.now();
    const deadline = options.timeoutMs === undefined ? undefined : AbortSignal.timeout(options.timeoutMs);
    const signal = AbortSignal.any([options.signal, deadline].filter((s): s is AbortSignal => s !== undefined));
    let last = '';
    for (;;) {
      let job: DubbingJobStatus;
      try {
        job = await this.get(requestId, { signal });
        const seen = `${job.status}\n${job.detailedTrace}`;
        if (seen !== last) {
          last = seen;
          options.onProgress?.({ job, fraction: DUBBING_STATUS_PROGRESS[job.status] ?? 0, elapsedMs: Date.now() - started });
        }
        if (matches(job)) return job;
        if (DUBBING_FAILURE_STATUSES.includes(job.status)) throw new DubbingJobFailedError(job);
        if (DUBBING_TERMINAL_STATUSES.includes(job.status)) return job;
        await sleep(options.pollIntervalMs ?? 2000, signal);
      } catch (error) {
        if (deadline?.aborted && !options.signal?.aborted && (error instanceof AbortError || signal.aborted)) {
          throw new TimeoutError(`Dubbing job ${requestId} did not reach the wanted status within ${options.timeoutMs} ms`, { cause: error });
        }
        throw error;
      }
    }
  }
}
