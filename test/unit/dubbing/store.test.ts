import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import type { ParsedDubbingJobRequest } from '../../../src/protocol/dubbing.js';
import { DubbingStore } from '../../../src/server/dubbing/store.js';
import { STATUSES_WITH_STEPS } from '../../../src/server/dubbing/workflow.js';

const request = (priority: number | undefined): ParsedDubbingJobRequest => ({
  sourceLocale: 'en-US',
  targetLocale: 'es-ES',
  sourceVideoPath: 'https://x/v.mp4',
  workflowType: 'AUTOMATED',
  mixType: 'REPLACEMENT',
  isVideoWaterMarked: false,
  ...(priority === undefined ? {} : { priority }),
  additionalProducts: [{ product: 'SRT', assetPath: 's3://out/a.srt' }],
});

function storeWith(priorities: Array<number | undefined>): DubbingStore {
  const store = new DubbingStore(new Database(':memory:'));
  priorities.forEach((p, i) =>
    store.create({ requestId: `j${i}`, accountId: 'acct', request: request(p), source: { container: 'mp4', headBytes: 1 }, exportPath: `s3://out/j${i}.wav`, status: 'INTAKE_PREPROCESSING', trace: ['queued'] }),
  );
  return store;
}

describe('DubbingStore', () => {
  it('offers runnable jobs by priority, then age, and skips jobs waiting for review until decided', () => {
    const store = storeWith([undefined, 5, 1, 5]);
    expect(store.runnable(STATUSES_WITH_STEPS, 10)).toEqual(['j1', 'j3', 'j2', 'j0']);
    const j1 = store.get('j1')!;
    expect(store.commit('j1', j1.version, { status: 'READY_FOR_QC', from: j1.status, trace: ['synth'], gated: true })).toBe(true);
    expect(store.runnable(STATUSES_WITH_STEPS, 10)).toEqual(['j3', 'j2', 'j0']);
    expect(store.awaitingReview().map((j) => j.requestId)).toEqual(['j1']);
    expect(store.decide('j1', 'READY_FOR_QC', 'approve', 'ok')).toBe(true);
    expect(store.runnable(STATUSES_WITH_STEPS, 10)[0]).toBe('j1');
    expect(store.decide('j1', 'QC_IN_REVIEW', 'approve', 'wrong status')).toBe(false);
  });

  it('commits a step only at the version it read (a cancel in between wins)', () => {
    const store = storeWith([undefined]);
    const job = store.get('j0')!;
    store.cancel('j0');
    expect(store.commit('j0', job.version, { status: 'INTAKE_VALIDATION', from: job.status, gated: false })).toBe(false);
    expect(store.get('j0')).toMatchObject({ status: 'FAILURE', cancelled: true });
    expect(store.list('acct', undefined, 10)).toEqual([]);
  });

  it('keeps jobs of other accounts apart and renders the status record', () => {
    const store = storeWith([undefined]);
    expect(store.get('j0', 'other')).toBeUndefined();
    const job = store.get('j0', 'acct')!;
    expect(store.commit('j0', job.version, { status: 'INTAKE_VALIDATION', from: 'INTAKE_PREPROCESSING', trace: ['probed'], delivered: [0], gated: false })).toBe(true);
    const record = store.statusRecord(store.get('j0')!);
    expect(record).toMatchObject({ requestId: 'j0', status: 'INTAKE_VALIDATION', exportPath: 's3://out/j0.wav', metadata: {}, additionalProducts: [{ product: 'SRT', assetPath: 's3://out/a.srt', state: 'DELIVERED' }] });
    expect(record.detailedTrace.split('\n').map((l) => l.replace(/^\S+ /, ''))).toEqual(['INTAKE_PREPROCESSING: queued', 'INTAKE_PREPROCESSING: probed']);
  });
});
