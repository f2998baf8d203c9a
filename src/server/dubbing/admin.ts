/**
 * Operator actions on dubbing jobs, for the admin endpoint and the CLI. They work on the database alone, so
 * the CLI can call them on a data directory whose server is running (its runner notices the change within a
 * sweep) or stopped (the job continues when the server starts).
 */
import { ConflictError, NotFoundError } from '../../errors.js';
import type { DubbingJobStatusName, DubbingReviewDecision } from '../../protocol/dubbing.js';
import type { Db } from '../store.js';
import { DubbingStore } from './store.js';
import { stepOf } from './workflow.js';

/** What {@link advanceDubbingJob} did. */
export interface AdvanceResult {
  requestId: string;
  /** The human-review status the decision applies to. */
  status: DubbingJobStatusName;
  decision: DubbingReviewDecision;
  /** The status the job moves to once the runner applies the decision. */
  next: DubbingJobStatusName;
}

/**
 * Records a reviewer's decision on a job parked at a human-review status (MANAGED tiers: READY_FOR_QC,
 * QC_IN_REVIEW, READY_FOR_MIX_QC, MIX_QC_IN_PROGRESS, CLIENT_REFIX_PROCESSING). Throws NotFoundError for an
 * unknown job (or one of another account when `accountId` is given) and ConflictError when the job is not
 * waiting for a review.
 */
export function advanceDubbingJob(db: Db | DubbingStore, requestId: string, decision: DubbingReviewDecision = 'approve', accountId?: string): AdvanceResult {
  const store = db instanceof DubbingStore ? db : new DubbingStore(db);
  const job = store.get(requestId, accountId);
  if (!job) throw new NotFoundError('not_found', `Dubbing job ${requestId} not found`, { status: 404 });
  const step = stepOf(job.status, job.workflowType);
  if (job.cancelled || !step?.reject) {
    throw new ConflictError('conflict', `Dubbing job ${requestId} is ${job.status}, not waiting for a review`, { status: 409 });
  }
  if (job.decision) throw new ConflictError('conflict', `Dubbing job ${requestId} already has a ${job.decision} decision pending at ${job.status}`, { status: 409 });
  const next = decision === 'approve' ? step.next : step.reject.next;
  if (!store.decide(requestId, job.status, decision, `review decision: ${decision} → ${next}`)) {
    throw new ConflictError('conflict', `Dubbing job ${requestId} moved on meanwhile`, { status: 409 });
  }
  return { requestId, status: job.status, decision, next };
}

/** Jobs parked at a human-review status with no decision yet, oldest first. */
export function dubbingJobsAwaitingReview(db: Db | DubbingStore): ReturnType<DubbingStore['awaitingReview']> {
  return (db instanceof DubbingStore ? db : new DubbingStore(db)).awaitingReview();
}
