/**
 * Durable state of dubbing jobs in the server's SQLite database: one row per job (status, workflow step
 * version, validated request, source probe, production plan, pending review decision), its products with
 * their delivery state, its trace lines, feedback submissions and attached sources. Every workflow step
 * commits through {@link DubbingStore.commit}, a compare-and-set on the job's `version`, in one transaction.
 */
import type { Db } from '../store.js';
import type {
  DubbingAdditionalSource,
  DubbingJobStatus,
  DubbingJobStatusName,
  DubbingProductRecord,
  DubbingProductState,
  DubbingProductType,
  DubbingReviewDecision,
  DubbingWorkflowType,
  ParsedDubbingJobRequest,
  ParsedRedubbingRequest,
} from '../../protocol/dubbing.js';
import type { SourceVideoInfo } from './source-video.js';

/** What the workflow has decided so far about producing a job. */
export interface JobPlan {
  /** characterId → voicePromptId. */
  casting: Record<string, string>;
  /** Per segment (request order): the revision whose synthesis is current. */
  segmentRevisions: number[];
  /** Duration of the dubbed track, ms (video duration, else the end of the last segment). */
  durationMs?: number;
}

/** A job as stored. */
export interface JobRow {
  seq: number;
  requestId: string;
  accountId: string;
  workflowType: DubbingWorkflowType;
  status: DubbingJobStatusName;
  /** Bumped by every change; steps commit only if it is unchanged since they read the row. */
  version: number;
  /** 0 for the first delivery, then one more per feedback submission. */
  revision: number;
  request: ParsedDubbingJobRequest;
  source: SourceVideoInfo;
  exportPath: string;
  needByDate: string | undefined;
  metadata: Record<string, string>;
  plan: JobPlan;
  /** A reviewer's decision waiting to be applied to a human-review status. */
  decision: DubbingReviewDecision | undefined;
  cancelled: boolean;
  createdAt: string;
}

/** A product of a job as stored. */
export interface ProductRow {
  position: number;
  product: DubbingProductType;
  assetPath: string;
  state: DubbingProductState;
  /** Revision last delivered, or undefined when never delivered. */
  deliveredRevision: number | undefined;
}

/** Changes committed together with a status transition. */
export interface StepCommit {
  status: DubbingJobStatusName;
  /** The status whose step did the work; the trace lines are recorded under it. */
  from: DubbingJobStatusName;
  trace?: readonly string[];
  /** Lines recorded under the new status (waiting for review, finished, why it failed). */
  arrival?: readonly string[];
  plan?: JobPlan;
  /** Positions of products delivered in this revision. */
  delivered?: readonly number[];
  /** Whether the new status waits for a reviewer's decision. */
  gated: boolean;
}

/** Most trace lines shown in `detailedTrace`. */
const TRACE_LINES = 200;

interface RawJob {
  seq: number;
  request_id: string;
  account_id: string;
  workflow_type: string;
  status: string;
  version: number;
  revision: number;
  request_json: string;
  source_json: string;
  export_path: string;
  need_by_date: string | null;
  metadata_json: string;
  plan_json: string;
  decision: string | null;
  cancelled: number;
  created_at: string;
}

function toJob(raw: RawJob): JobRow {
  return {
    seq: raw.seq,
    requestId: raw.request_id,
    accountId: raw.account_id,
    workflowType: raw.workflow_type as DubbingWorkflowType,
    status: raw.status as DubbingJobStatusName,
    version: raw.version,
    revision: raw.revision,
    request: JSON.parse(raw.request_json) as ParsedDubbingJobRequest,
    source: JSON.parse(raw.source_json) as SourceVideoInfo,
    exportPath: raw.export_path,
    needByDate: raw.need_by_date ?? undefined,
    metadata: JSON.parse(raw.metadata_json) as Record<string, string>,
    plan: JSON.parse(raw.plan_json) as JobPlan,
    decision: (raw.decision ?? undefined) as DubbingReviewDecision | undefined,
    cancelled: raw.cancelled === 1,
    createdAt: raw.created_at,
  };
}

/** A new job. */
export interface NewJob {
  requestId: string;
  accountId: string;
  request: ParsedDubbingJobRequest;
  source: SourceVideoInfo;
  exportPath: string;
  status: DubbingJobStatusName;
  trace: readonly string[];
}

/** Job persistence on the shared database. */
export class DubbingStore {
  readonly #db: Db;

  constructor(db: Db) {
    this.#db = db;
    db.exec(`
      CREATE TABLE IF NOT EXISTS dubbing_jobs (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        request_id TEXT NOT NULL UNIQUE,
        account_id TEXT NOT NULL,
        workflow_type TEXT NOT NULL,
        status TEXT NOT NULL,
        version INTEGER NOT NULL DEFAULT 0,
        revision INTEGER NOT NULL DEFAULT 0,
        priority INTEGER NOT NULL DEFAULT 0,
        request_json TEXT NOT NULL,
        source_json TEXT NOT NULL,
        export_path TEXT NOT NULL,
        need_by_date TEXT,
        metadata_json TEXT NOT NULL,
        plan_json TEXT NOT NULL,
        decision TEXT,
        waiting_review INTEGER NOT NULL DEFAULT 0,
        cancelled INTEGER NOT NULL DEFAULT 0,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
      CREATE INDEX IF NOT EXISTS dubbing_jobs_account ON dubbing_jobs (account_id, cancelled, seq);
      CREATE TABLE IF NOT EXISTS dubbing_products (
        request_id TEXT NOT NULL,
        position INTEGER NOT NULL,
        product TEXT NOT NULL,
        asset_path TEXT NOT NULL,
        state TEXT NOT NULL,
        delivered_revision INTEGER,
        PRIMARY KEY (request_id, position)
      );
      CREATE TABLE IF NOT EXISTS dubbing_trace (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        request_id TEXT NOT NULL,
        at TEXT NOT NULL,
        status TEXT NOT NULL,
        message TEXT NOT NULL
      );
      CREATE INDEX IF NOT EXISTS dubbing_trace_job ON dubbing_trace (request_id, id);
      CREATE TABLE IF NOT EXISTS dubbing_feedback (
        request_id TEXT NOT NULL,
        revision INTEGER NOT NULL,
        body_json TEXT NOT NULL,
        created_at TEXT NOT NULL,
        PRIMARY KEY (request_id, revision)
      );
      CREATE TABLE IF NOT EXISTS dubbing_sources (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        request_id TEXT NOT NULL,
        source TEXT NOT NULL,
        asset_path TEXT NOT NULL,
        created_at TEXT NOT NULL
      );
    `);
  }

  #trace(requestId: string, status: DubbingJobStatusName, lines: readonly string[]): void {
    const insert = this.#db.prepare('INSERT INTO dubbing_trace (request_id, at, status, message) VALUES (?, ?, ?, ?)');
    const at = new Date().toISOString();
    for (const line of lines) insert.run(requestId, at, status, line);
  }

  /** Appends a progress line to a job's trace without touching its state (a step in progress reporting). */
  note(requestId: string, status: DubbingJobStatusName, line: string): void {
    this.#trace(requestId, status, [line]);
  }

  /** Stores a new job with its products (all PENDING_DELIVERY) and sources. */
  create(job: NewJob): void {
    const now = new Date().toISOString();
    const plan: JobPlan = { casting: {}, segmentRevisions: (job.request.segments ?? []).map(() => 0) };
    this.#db.transaction(() => {
      this.#db
        .prepare(
          `INSERT INTO dubbing_jobs (request_id, account_id, workflow_type, status, priority, request_json, source_json, export_path,
             need_by_date, metadata_json, plan_json, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(
          job.requestId,
          job.accountId,
          job.request.workflowType,
          job.status,
          job.request.priority ?? 0,
          JSON.stringify(job.request),
          JSON.stringify(job.source),
          job.exportPath,
          job.request.needByDate ?? null,
          JSON.stringify(job.request.metadata ?? {}),
          JSON.stringify(plan),
          now,
          now,
        );
      const product = this.#db.prepare('INSERT INTO dubbing_products (request_id, position, product, asset_path, state) VALUES (?, ?, ?, ?, ?)');
      (job.request.additionalProducts ?? []).forEach((p, i) => product.run(job.requestId, i, p.product, p.assetPath, 'PENDING_DELIVERY'));
      for (const s of job.request.additionalSources ?? []) this.#addSource(job.requestId, s, now);
      this.#trace(job.requestId, job.status, job.trace);
    })();
  }

  #addSource(requestId: string, source: DubbingAdditionalSource, now: string): void {
    this.#db.prepare('INSERT INTO dubbing_sources (request_id, source, asset_path, created_at) VALUES (?, ?, ?, ?)').run(requestId, source.source, source.assetPath, now);
  }

  /** The job `requestId`, optionally only when it belongs to `accountId`. */
  get(requestId: string, accountId?: string): JobRow | undefined {
    const raw = this.#db.prepare('SELECT * FROM dubbing_jobs WHERE request_id = ?').get(requestId) as RawJob | undefined;
    if (!raw || (accountId !== undefined && raw.account_id !== accountId)) return undefined;
    return toJob(raw);
  }

  /** The job's products in request order. */
  products(requestId: string): ProductRow[] {
    const rows = this.#db.prepare('SELECT * FROM dubbing_products WHERE request_id = ? ORDER BY position').all(requestId) as Array<{
      position: number;
      product: string;
      asset_path: string;
      state: string;
      delivered_revision: number | null;
    }>;
    return rows.map((r) => ({
      position: r.position,
      product: r.product as DubbingProductType,
      assetPath: r.asset_path,
      state: r.state as DubbingProductState,
      deliveredRevision: r.delivered_revision ?? undefined,
    }));
  }

  /** The wire status record of `job`. */
  statusRecord(job: JobRow): DubbingJobStatus {
    const trace = this.#db
      .prepare('SELECT at, status, message FROM (SELECT * FROM dubbing_trace WHERE request_id = ? ORDER BY id DESC LIMIT ?) ORDER BY id')
      .all(job.requestId, TRACE_LINES) as Array<{ at: string; status: string; message: string }>;
    const additionalProducts: DubbingProductRecord[] = this.products(job.requestId).map((p) => ({ product: p.product, assetPath: p.assetPath, state: p.state }));
    return {
      requestId: job.requestId,
      status: job.status,
      detailedTrace: trace.map((t) => `${t.at} ${t.status}: ${t.message}`).join('\n'),
      exportPath: job.exportPath,
      additionalProducts,
      metadata: job.metadata,
    };
  }

  /** One page of the account's jobs that are not cancelled, newest first, strictly older than `beforeSeq`. */
  list(accountId: string, beforeSeq: number | undefined, limit: number): JobRow[] {
    const rows = this.#db
      .prepare('SELECT * FROM dubbing_jobs WHERE account_id = ? AND cancelled = 0 AND seq < ? ORDER BY seq DESC LIMIT ?')
      .all(accountId, beforeSeq ?? Number.MAX_SAFE_INTEGER, limit) as RawJob[];
    return rows.map(toJob);
  }

  /** Applies a client update (`needByDate`, `metadata`); it does not disturb a running step. */
  update(requestId: string, changes: { needByDate?: string | undefined; metadata?: Record<string, string> | undefined }): void {
    const now = new Date().toISOString();
    if (changes.needByDate !== undefined) this.#db.prepare('UPDATE dubbing_jobs SET need_by_date = ?, updated_at = ? WHERE request_id = ?').run(changes.needByDate, now, requestId);
    if (changes.metadata !== undefined) {
      this.#db.prepare('UPDATE dubbing_jobs SET metadata_json = ?, updated_at = ? WHERE request_id = ?').run(JSON.stringify(changes.metadata), now, requestId);
    }
  }

  /** Commits a workflow step: applies `commit` only if the job is still at `expectedVersion`. */
  commit(requestId: string, expectedVersion: number, commit: StepCommit): boolean {
    return this.#db.transaction(() => {
      const now = new Date().toISOString();
      const changed = this.#db
        .prepare(
          `UPDATE dubbing_jobs SET status = ?, version = version + 1, decision = NULL, waiting_review = ?, updated_at = ?,
             plan_json = COALESCE(?, plan_json) WHERE request_id = ? AND version = ? AND cancelled = 0`,
        )
        .run(commit.status, commit.gated ? 1 : 0, now, commit.plan ? JSON.stringify(commit.plan) : null, requestId, expectedVersion).changes;
      if (changed === 0) return false;
      const deliver = this.#db.prepare(
        "UPDATE dubbing_products SET state = 'DELIVERED', delivered_revision = (SELECT revision FROM dubbing_jobs WHERE request_id = ?) WHERE request_id = ? AND position = ?",
      );
      for (const position of commit.delivered ?? []) deliver.run(requestId, requestId, position);
      this.#trace(requestId, commit.from, commit.trace ?? []);
      this.#trace(requestId, commit.status, commit.arrival ?? []);
      return true;
    })();
  }

  /** Records a reviewer's decision on a job parked at `status`; false when the job moved on meanwhile. */
  decide(requestId: string, status: DubbingJobStatusName, decision: DubbingReviewDecision, note: string): boolean {
    return this.#db.transaction(() => {
      const changed = this.#db
        .prepare('UPDATE dubbing_jobs SET decision = ?, version = version + 1, updated_at = ? WHERE request_id = ? AND status = ? AND cancelled = 0')
        .run(decision, new Date().toISOString(), requestId, status).changes;
      if (changed > 0) this.#trace(requestId, status, [note]);
      return changed > 0;
    })();
  }

  /**
   * Starts a revision from feedback: stores the submission, bumps the revision, sets the new export path,
   * merges the products (same product + asset path is kept once) and marks them all PENDING_DELIVERY.
   */
  startRevision(job: JobRow, feedback: ParsedRedubbingRequest, exportPath: string, status: DubbingJobStatusName, gated: boolean, trace: readonly string[]): number {
    const revision = Math.max(job.revision + 1, feedback.revisionNumber ?? 0);
    const now = new Date().toISOString();
    this.#db.transaction(() => {
      this.#db
        .prepare('UPDATE dubbing_jobs SET revision = ?, status = ?, export_path = ?, version = version + 1, decision = NULL, waiting_review = ?, updated_at = ? WHERE request_id = ?')
        .run(revision, status, exportPath, gated ? 1 : 0, now, job.requestId);
      this.#db.prepare('INSERT OR REPLACE INTO dubbing_feedback (request_id, revision, body_json, created_at) VALUES (?, ?, ?, ?)').run(job.requestId, revision, JSON.stringify(feedback), now);
      const existing = this.products(job.requestId);
      let next = existing.reduce((m, p) => Math.max(m, p.position + 1), 0);
      for (const p of feedback.additionalProducts ?? []) {
        if (existing.some((e) => e.product === p.product && e.assetPath === p.assetPath)) continue;
        this.#db.prepare('INSERT INTO dubbing_products (request_id, position, product, asset_path, state) VALUES (?, ?, ?, ?, ?)').run(job.requestId, next++, p.product, p.assetPath, 'PENDING_DELIVERY');
      }
      this.#db.prepare("UPDATE dubbing_products SET state = 'PENDING_DELIVERY' WHERE request_id = ?").run(job.requestId);
      this.#trace(job.requestId, status, trace);
    })();
    return revision;
  }

  /** The feedback submission of `revision`, if any. */
  feedback(requestId: string, revision: number): ParsedRedubbingRequest | undefined {
    const row = this.#db.prepare('SELECT body_json FROM dubbing_feedback WHERE request_id = ? AND revision = ?').get(requestId, revision) as { body_json: string } | undefined;
    return row ? (JSON.parse(row.body_json) as ParsedRedubbingRequest) : undefined;
  }

  /** Products that were delivered before go back to DELIVERED (a rejected refix leaves the last delivery standing). */
  restoreDelivered(requestId: string): void {
    this.#db.prepare("UPDATE dubbing_products SET state = 'DELIVERED' WHERE request_id = ? AND delivered_revision IS NOT NULL").run(requestId);
  }

  /** Attaches an additional source to a job. */
  addSource(requestId: string, status: DubbingJobStatusName, source: DubbingAdditionalSource): void {
    this.#db.transaction(() => {
      this.#addSource(requestId, source, new Date().toISOString());
      this.#trace(requestId, status, [`additional source ${source.source} attached: ${source.assetPath}`]);
    })();
  }

  /** Marks a job cancelled (permanent); its status becomes FAILURE. */
  cancel(requestId: string): void {
    this.#db.transaction(() => {
      this.#db.prepare("UPDATE dubbing_jobs SET cancelled = 1, status = 'FAILURE', version = version + 1, updated_at = ? WHERE request_id = ?").run(new Date().toISOString(), requestId);
      this.#trace(requestId, 'FAILURE', ['cancelled by the client']);
    })();
  }

  /** Jobs parked at a human-review status with no decision yet, oldest first. */
  awaitingReview(): Array<{ requestId: string; accountId: string; workflowType: DubbingWorkflowType; status: DubbingJobStatusName }> {
    const rows = this.#db
      .prepare('SELECT request_id, account_id, workflow_type, status FROM dubbing_jobs WHERE cancelled = 0 AND waiting_review = 1 AND decision IS NULL ORDER BY seq')
      .all() as Array<{ request_id: string; account_id: string; workflow_type: DubbingWorkflowType; status: DubbingJobStatusName }>;
    return rows.map((r) => ({ requestId: r.request_id, accountId: r.account_id, workflowType: r.workflow_type, status: r.status }));
  }

  /** Jobs with work to do: not cancelled, status in `statuses`, not waiting for a review (or decided); most urgent first. */
  runnable(statuses: readonly DubbingJobStatusName[], limit: number): string[] {
    const marks = statuses.map(() => '?').join(', ');
    const rows = this.#db
      .prepare(
        `SELECT request_id FROM dubbing_jobs WHERE cancelled = 0 AND status IN (${marks}) AND (waiting_review = 0 OR decision IS NOT NULL)
         ORDER BY priority DESC, seq LIMIT ?`,
      )
      .all(...statuses, limit) as Array<{ request_id: string }>;
    return rows.map((r) => r.request_id);
  }
}
