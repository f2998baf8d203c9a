import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DubbingClient } from '../../../src/client/dubbing.js';
import { automatedJob, startDubbingStack, type DubbingStack } from './harness.js';
import { mp4File, type MediaServer } from './media-fixtures.js';

/** Time of the first trace line recorded under `status`. */
const firstAt = (trace: string, status: string): number => {
  const line = trace.split('\n').find((l) => l.split(' ')[1] === `${status}:`);
  if (!line) throw new Error(`no ${status} line in trace`);
  return Date.parse(line.split(' ')[0] ?? '');
};

describe('dubbing job queue', () => {
  let stack: DubbingStack;
  let media: MediaServer;
  let client: DubbingClient;

  beforeAll(async () => {
    stack = await startDubbingStack({ '/v/ep.mp4': mp4File(10_000) }, { stepMs: 20, env: { VOXPIPE_DUBBING_CONCURRENCY: '1' } });
    ({ media, client } = stack);
  });
  afterAll(() => stack.close());

  it('works one job at a time (concurrency 1), the most urgent queued job next', async () => {
    const video = `${media.url}/v/ep.mp4`;
    const first = await client.create(automatedJob(video, 'q1'));
    const low = await client.create({ ...automatedJob(video, 'q2'), priority: 1 });
    const high = await client.create({ ...automatedJob(video, 'q3'), priority: 10 });
    const [a, b, c] = await Promise.all([first, low, high].map(({ requestId }) => client.waitFor(requestId, { pollIntervalMs: 10 })));
    // Jobs never overlap: each starts its casting after the previous one delivered.
    const order = [a!, c!, b!];
    for (let i = 1; i < order.length; i++) expect(firstAt(order[i]!.detailedTrace, 'CASTING')).toBeGreaterThanOrEqual(firstAt(order[i - 1]!.detailedTrace, 'DELIVERED_TO_CLIENT'));
  });

  it('stops working on a job cancelled mid-workflow', async () => {
    const { requestId } = await client.create(automatedJob(`${media.url}/v/ep.mp4`, 'cancelled'));
    await client.waitFor(requestId, { until: ['CASTING', 'ADAPTGEN_START', 'ADAPTGEN_MIDWAY'], pollIntervalMs: 2 });
    await client.cancel(requestId);
    const cancelled = await client.get(requestId);
    await delay(200); // several step pauses: a runner still at work would have committed by now
    const later = await client.get(requestId);
    expect(later).toEqual(cancelled);
    expect(later.status).toBe('FAILURE');
    expect(later.detailedTrace.split('\n').at(-1)).toMatch(/FAILURE: cancelled by the client$/);
    expect(later.additionalProducts.every((p) => p.state === 'PENDING_DELIVERY')).toBe(true);
  });
});
