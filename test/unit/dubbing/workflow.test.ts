import { describe, expect, it } from 'vitest';
import { DUBBING_DELIVERED_STATUSES, DUBBING_JOB_STATUSES, DUBBING_TERMINAL_STATUSES, DUBBING_WORKFLOW_TYPES, type DubbingJobStatusName } from '../../../src/protocol/dubbing.js';
import { failureStatusOf, isGated, stepOf, STATUSES_WITH_STEPS } from '../../../src/server/dubbing/workflow.js';

/** Follows approvals from `from` until a status without a step; returns the path. */
function approvePath(from: DubbingJobStatusName, type: (typeof DUBBING_WORKFLOW_TYPES)[number]): DubbingJobStatusName[] {
  const path = [from];
  for (let status = from, step = stepOf(status, type); step; step = stepOf(status, type)) {
    status = step.next;
    path.push(status);
    if (path.length > 40) throw new Error('loop');
  }
  return path;
}

describe('dubbing workflow graph', () => {
  it('takes AUTOMATED jobs straight through to delivery, with no review gates', () => {
    expect(approvePath('INTAKE_PREPROCESSING', 'AUTOMATED')).toEqual([
      'INTAKE_PREPROCESSING',
      'INTAKE_VALIDATION',
      'INTAKE_APPROVED',
      'CASTING',
      'ADAPTGEN_START',
      'ADAPTGEN_MIDWAY',
      'READY_FOR_MIXING',
      'MIXING_IN_PROGRESS',
      'DELIVERED_TO_CLIENT',
    ]);
    expect(approvePath('CLIENT_REFIX_PROCESSING', 'AUTOMATED')).toEqual(['CLIENT_REFIX_PROCESSING', 'CLIENT_REFIX', 'READY_FOR_REDMX', 'REDMX_DONE', 'REDELIVERED_TO_CLIENT']);
    const reachable = [...approvePath('INTAKE_PREPROCESSING', 'AUTOMATED'), ...approvePath('CLIENT_REFIX_PROCESSING', 'AUTOMATED')];
    expect(reachable.filter((s) => isGated(s, 'AUTOMATED'))).toEqual([]);
  });

  it('parks MANAGED tiers at the human-review statuses; the high tier adds the DMX stage', () => {
    expect(DUBBING_JOB_STATUSES.filter((s) => isGated(s, 'MANAGED'))).toEqual(['READY_FOR_QC', 'QC_IN_REVIEW', 'READY_FOR_MIX_QC', 'MIX_QC_IN_PROGRESS', 'CLIENT_REFIX_PROCESSING']);
    const high = approvePath('INTAKE_PREPROCESSING', 'MANAGED_HIGH_TIER');
    expect(high.slice(2, 6)).toEqual(['INTAKE_APPROVED', 'READY_FOR_DMX', 'DMX_DONE', 'CASTING']);
    expect(high.at(-1)).toBe('DELIVERED_TO_CLIENT');
    expect(stepOf('QC_IN_REVIEW', 'MANAGED')?.reject?.next).toBe('ADAPTGEN_QC_FIX');
    expect(stepOf('CLIENT_REFIX_PROCESSING', 'MANAGED')?.reject).toEqual({ next: 'CLIENT_REFIX_REJECTED', work: 'reject-refix' });
  });

  it('ends every path at a terminal status, and feedback is accepted exactly at delivered ones', () => {
    for (const type of DUBBING_WORKFLOW_TYPES) {
      for (const status of DUBBING_JOB_STATUSES) {
        const step = stepOf(status, type);
        if (!step) continue;
        expect(STATUSES_WITH_STEPS).toContain(status);
        expect(DUBBING_TERMINAL_STATUSES).toContain(approvePath(status, type).at(-1));
      }
    }
    for (const status of DUBBING_TERMINAL_STATUSES) for (const type of DUBBING_WORKFLOW_TYPES) expect(stepOf(status, type)).toBeUndefined();
    expect(DUBBING_DELIVERED_STATUSES.every((s) => DUBBING_TERMINAL_STATUSES.includes(s))).toBe(true);
    expect(failureStatusOf('INTAKE_VALIDATION')).toBe('INTAKE_FAILED');
    expect(failureStatusOf('MIXING_IN_PROGRESS')).toBe('FAILURE');
  });
});
