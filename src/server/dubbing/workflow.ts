/**
 * The transition graph of dubbing jobs over the spec's statuses. Each status that is not terminal has one
 * step: the work done while the job is in it, and the status it moves to after. Steps on human-review
 * statuses are gated: they wait for a reviewer's decision (admin endpoint or {@link advanceDubbingJob}) and
 * a rejection leads elsewhere.
 *
 * ```
 * intake (all tiers)   INTAKE_PREPROCESSING → INTAKE_VALIDATION → INTAKE_APPROVED            (intake errors → INTAKE_FAILED)
 * MANAGED_HIGH_TIER    INTAKE_APPROVED → READY_FOR_DMX → DMX_DONE → CASTING
 * AUTOMATED, MANAGED   INTAKE_APPROVED → CASTING
 * synthesis            CASTING → ADAPTGEN_START → ADAPTGEN_MIDWAY
 * AUTOMATED            ADAPTGEN_MIDWAY → READY_FOR_MIXING → MIXING_IN_PROGRESS → DELIVERED_TO_CLIENT
 * MANAGED tiers        ADAPTGEN_MIDWAY → READY_FOR_QC ⏸ → QC_IN_REVIEW ⏸ → READY_FOR_MIXING → MIXING_IN_PROGRESS
 *                        → READY_FOR_MIX_QC ⏸ → MIX_QC_IN_PROGRESS ⏸ → DELIVERED_TO_CLIENT
 *                      rejections: READY_FOR_QC / QC_IN_REVIEW → ADAPTGEN_QC_FIX → READY_FOR_QC;
 *                                  READY_FOR_MIX_QC / MIX_QC_IN_PROGRESS → READY_FOR_MIXING
 * feedback (PATCH)     DELIVERED_TO_CLIENT | REDELIVERED_TO_CLIENT | CLIENT_REFIX_REJECTED → CLIENT_REFIX_PROCESSING
 *                        (⏸ on MANAGED tiers; rejection → CLIENT_REFIX_REJECTED) → CLIENT_REFIX → READY_FOR_REDMX
 *                        → REDMX_DONE → REDELIVERED_TO_CLIENT
 * any step error after intake → FAILURE; DELETE (cancel) → FAILURE
 * ```
 * ⏸ = gated. `QC`, `PARKED_REQUEST` and `PARKED_REQUEST_RECEIVED` are not used by the reference service.
 */
import type { DubbingJobStatusName, DubbingWorkflowType } from '../../protocol/dubbing.js';

/** The kinds of work a step does (implemented by the producer). */
export type StepWork =
  | 'none'
  | 'preprocess'
  | 'validate'
  | 'demix'
  | 'cast'
  | 'synthesize-first-half'
  | 'synthesize-remaining'
  | 'qc-fix'
  | 'mix'
  | 'mix-and-deliver'
  | 'deliver'
  | 'plan-refix'
  | 'reject-refix';

/** A status's step. */
export interface Step {
  work: StepWork;
  next: DubbingJobStatusName;
  /** Present on gated statuses: where a rejection leads and what it does. */
  reject?: { next: DubbingJobStatusName; work: StepWork };
}

const managed = (type: DubbingWorkflowType): boolean => type !== 'AUTOMATED';

/** The step of `status` for a job of `type`, or undefined when the status is terminal (or unused). */
export function stepOf(status: DubbingJobStatusName, type: DubbingWorkflowType): Step | undefined {
  switch (status) {
    case 'INTAKE_PREPROCESSING':
      return { work: 'preprocess', next: 'INTAKE_VALIDATION' };
    case 'INTAKE_VALIDATION':
      return { work: 'validate', next: 'INTAKE_APPROVED' };
    case 'INTAKE_APPROVED':
      return { work: 'none', next: type === 'MANAGED_HIGH_TIER' ? 'READY_FOR_DMX' : 'CASTING' };
    case 'READY_FOR_DMX':
      return { work: 'demix', next: 'DMX_DONE' };
    case 'DMX_DONE':
      return { work: 'none', next: 'CASTING' };
    case 'CASTING':
      return { work: 'cast', next: 'ADAPTGEN_START' };
    case 'ADAPTGEN_START':
      return { work: 'synthesize-first-half', next: 'ADAPTGEN_MIDWAY' };
    case 'ADAPTGEN_MIDWAY':
      return { work: 'synthesize-remaining', next: managed(type) ? 'READY_FOR_QC' : 'READY_FOR_MIXING' };
    case 'READY_FOR_QC':
      return { work: 'none', next: 'QC_IN_REVIEW', reject: { next: 'ADAPTGEN_QC_FIX', work: 'none' } };
    case 'QC_IN_REVIEW':
      return { work: 'none', next: 'READY_FOR_MIXING', reject: { next: 'ADAPTGEN_QC_FIX', work: 'none' } };
    case 'ADAPTGEN_QC_FIX':
      return { work: 'qc-fix', next: 'READY_FOR_QC' };
    case 'READY_FOR_MIXING':
      return { work: 'none', next: 'MIXING_IN_PROGRESS' };
    case 'MIXING_IN_PROGRESS':
      return managed(type) ? { work: 'mix', next: 'READY_FOR_MIX_QC' } : { work: 'mix-and-deliver', next: 'DELIVERED_TO_CLIENT' };
    case 'READY_FOR_MIX_QC':
      return { work: 'none', next: 'MIX_QC_IN_PROGRESS', reject: { next: 'READY_FOR_MIXING', work: 'none' } };
    case 'MIX_QC_IN_PROGRESS':
      return { work: 'deliver', next: 'DELIVERED_TO_CLIENT', reject: { next: 'READY_FOR_MIXING', work: 'none' } };
    case 'CLIENT_REFIX_PROCESSING':
      return managed(type)
        ? { work: 'plan-refix', next: 'CLIENT_REFIX', reject: { next: 'CLIENT_REFIX_REJECTED', work: 'reject-refix' } }
        : { work: 'plan-refix', next: 'CLIENT_REFIX' };
    case 'CLIENT_REFIX':
      return { work: 'synthesize-remaining', next: 'READY_FOR_REDMX' };
    case 'READY_FOR_REDMX':
      return { work: 'mix', next: 'REDMX_DONE' };
    case 'REDMX_DONE':
      return { work: 'deliver', next: 'REDELIVERED_TO_CLIENT' };
    default:
      return undefined;
  }
}

/** Whether `status` waits for a reviewer's decision on a job of `type`. */
export function isGated(status: DubbingJobStatusName, type: DubbingWorkflowType): boolean {
  return stepOf(status, type)?.reject !== undefined;
}

/** Statuses that have a step for some workflow type (candidates for the runner). */
export const STATUSES_WITH_STEPS: readonly DubbingJobStatusName[] = [
  'INTAKE_PREPROCESSING',
  'INTAKE_VALIDATION',
  'INTAKE_APPROVED',
  'READY_FOR_DMX',
  'DMX_DONE',
  'CASTING',
  'ADAPTGEN_START',
  'ADAPTGEN_MIDWAY',
  'READY_FOR_QC',
  'QC_IN_REVIEW',
  'ADAPTGEN_QC_FIX',
  'READY_FOR_MIXING',
  'MIXING_IN_PROGRESS',
  'READY_FOR_MIX_QC',
  'MIX_QC_IN_PROGRESS',
  'CLIENT_REFIX_PROCESSING',
  'CLIENT_REFIX',
  'READY_FOR_REDMX',
  'REDMX_DONE',
];

/** The status a failing step of `status` leads to. */
export function failureStatusOf(status: DubbingJobStatusName): DubbingJobStatusName {
  return status.startsWith('INTAKE_') ? 'INTAKE_FAILED' : 'FAILURE';
}
