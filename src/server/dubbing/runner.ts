/**
 * Drives jobs through the workflow ({@link stepOf}) durably. For each runnable job it reads the stored row,
 * does the step's work, and commits the transition (status, trace, plan, deliveries) in one transaction
 * guarded by the row's version, then pauses `stepDelayMs`. Nothing about progress lives only in memory: on
 * start (and every sweep, which also notices decisions made by another process such as the admin CLI) it
 * picks up every job that has work to do, so a server restarted mid-job resumes at the step it was in; an
 * interrupted step is simply done again (steps are idempotent). At most `concurrency` jobs run at once.
 */
import { setTimeout as delay } from 'node:timers/promises';
import type { Logger } from 'pino';
import { DUBBING_FAILURE_STATUSES } from '../../protocol/dubbing.js';
import { failureStatusOf, isGated, stepOf, STATUSES_WITH_STEPS, type StepWork } from './workflow.js';
import type { DubbingProducer, WorkResult } from './production.js';
import type { DubbingSettings } from './settings.js';
import type { DubbingStore } from './store.js';

/** Runs dubbing jobs in the background of the server. */
export class DubbingRunner {
  readonly #store: DubbingStore;
  readonly #producer: DubbingProducer;
  readonly #settings: DubbingSettings;
  readonly #log: Logger;
  readonly #running = new Map<string, Promise<void>>();
  readonly #abort = new AbortController();
  #timer: NodeJS.Timeout | undefined;

  constructor(store: DubbingStore, producer: DubbingProducer, settings: DubbingSettings, logger: Logger) {
    this.#store = store;
    this.#producer = producer;
    this.#settings = settings;
    this.#log = logger;
  }

  /** Resumes unfinished jobs and starts sweeping for runnable ones. */
  start(): void {
    this.kick();
    this.#timer = setInterval(() => this.kick(), this.#settings.sweepIntervalMs);
    this.#timer.unref();
  }

  /** Starts runnable jobs up to the concurrency limit (call after anything that may make a job runnable). */
  kick(): void {
    if (this.#abort.signal.aborted) return;
    const free = this.#settings.concurrency - this.#running.size;
    if (free <= 0) return;
    const candidates = this.#store.runnable(STATUSES_WITH_STEPS, free + this.#running.size).filter((id) => !this.#running.has(id));
    for (const id of candidates.slice(0, free)) {
      const run = this.#run(id)
        .catch((error: unknown) => this.#log.error({ err: error, requestId: id }, 'dubbing job runner failed'))
        .finally(() => {
          this.#running.delete(id);
          this.kick();
        });
      this.#running.set(id, run);
    }
  }

  async #run(requestId: string): Promise<void> {
    const signal = this.#abort.signal;
    while (!signal.aborted) {
      const job = this.#store.get(requestId);
      if (!job || job.cancelled) return;
      const step = stepOf(job.status, job.workflowType);
      if (!step) return;
      let work: StepWork = step.work;
      let next = step.next;
      if (step.reject) {
        if (!job.decision) return;
        if (job.decision === 'reject') ({ work, next } = step.reject);
      }
      let result: WorkResult;
      try {
        result = await this.#producer.run(work, job, signal);
      } catch (error) {
        if (signal.aborted) return;
        this.#log.warn({ err: error, requestId, status: job.status }, 'dubbing step failed');
        result = { status: failureStatusOf(job.status), trace: [`${work} failed: ${(error as Error).message}`] };
      }
      if (signal.aborted) return; // an interrupted step is redone after restart
      const status = result.status ?? next;
      const gated = isGated(status, job.workflowType);
      const failed = DUBBING_FAILURE_STATUSES.includes(status);
      const trace = result.trace.length > 0 ? result.trace : [`${job.decision ? `review ${job.decision}d` : 'done'} → ${status}`];
      const arrival = gated ? ['waiting for a review decision (approve or reject)'] : failed ? trace : stepOf(status, job.workflowType) ? [] : ['job finished'];
      const committed = this.#store.commit(requestId, job.version, {
        status,
        from: job.status,
        trace: failed ? [] : trace,
        arrival,
        gated,
        ...(result.plan ? { plan: result.plan } : {}),
        ...(result.delivered ? { delivered: result.delivered } : {}),
      });
      if (committed) this.#log.debug({ requestId, from: job.status, to: status }, 'dubbing job advanced');
      if (this.#settings.stepDelayMs > 0) await delay(this.#settings.stepDelayMs, undefined, { signal }).catch(() => undefined);
    }
  }

  /** Stops: in-flight steps are abandoned uncommitted; resolves when every job loop has returned. */
  async close(): Promise<void> {
    this.#abort.abort();
    if (this.#timer) clearInterval(this.#timer);
    await Promise.allSettled([...this.#running.values()]);
  }
}
