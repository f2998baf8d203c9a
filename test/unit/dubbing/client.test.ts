import { describe, expect, it } from 'vitest';
import { DubbingClient, DubbingJobFailedError } from '../../../src/client/dubbing.js';
import type { DubbingJobStatus, DubbingJobStatusName } from '../../../src/protocol/dubbing.js';

const record = (status: DubbingJobStatusName, trace = `t ${status}: working`): DubbingJobStatus => ({
  requestId: 'job-1',
  status,
  detailedTrace: trace,
  exportPath: 's3://b/k.wav',
  additionalProducts: [],
  metadata: {},
});

/** A DubbingClient whose GETs of the job walk through `statuses` (the last one repeats); records every request. */
function scripted(statuses: DubbingJobStatus[], responses: Record<string, unknown> = {}) {
  const requests: Array<{ method: string; url: string; body?: string }> = [];
  let i = 0;
  const fetchImpl = (async (url: string | URL, init?: RequestInit) => {
    requests.push({ method: init?.method ?? 'GET', url: String(url), ...(typeof init?.body === 'string' ? { body: init.body } : {}) });
    const key = `${init?.method ?? 'GET'} ${new URL(String(url)).pathname}`;
    const body = key in responses ? responses[key] : statuses[Math.min(i++, statuses.length - 1)];
    return new Response(body === undefined ? null : JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
  }) as typeof fetch;
  return { client: new DubbingClient({ baseUrl: 'http://127.0.0.1:1', apiKey: 'k', fetch: fetchImpl, maxRetries: 0 }), requests };
}

describe('DubbingClient', () => {
  it('waitFor reports each change once and resolves at the wanted status', async () => {
    const { client } = scripted([record('INTAKE_PREPROCESSING'), record('INTAKE_PREPROCESSING'), record('CASTING'), record('DELIVERED_TO_CLIENT')]);
    const seen: Array<[string, number]> = [];
    const job = await client.waitFor('job-1', { pollIntervalMs: 1, onProgress: (p) => seen.push([p.job.status, p.fraction]) });
    expect(job.status).toBe('DELIVERED_TO_CLIENT');
    expect(seen).toEqual([
      ['INTAKE_PREPROCESSING', 0.02],
      ['CASTING', 0.2],
      ['DELIVERED_TO_CLIENT', 1],
    ]);
  });

  it('waitFor takes a list or a predicate, and stops at a terminal status it was not asked for', async () => {
    await expect(scripted([record('CASTING'), record('READY_FOR_QC')]).client.waitFor('job-1', { until: ['READY_FOR_QC', 'QC_IN_REVIEW'], pollIntervalMs: 1 })).resolves.toMatchObject({ status: 'READY_FOR_QC' });
    await expect(scripted([record('CASTING', 'a'), record('CASTING', 'a\nb')]).client.waitFor('job-1', { until: (j) => j.detailedTrace.includes('b'), pollIntervalMs: 1 })).resolves.toMatchObject({ status: 'CASTING' });
    await expect(scripted([record('CLIENT_REFIX_REJECTED')]).client.waitFor('job-1', { until: 'REDELIVERED_TO_CLIENT', pollIntervalMs: 1 })).resolves.toMatchObject({ status: 'CLIENT_REFIX_REJECTED' });
  });

  it('waitFor rejects on failure with the last trace line, on abort, and on timeout', async () => {
    const failed = await scripted([record('CASTING'), record('FAILURE', '2026-01-01T00:00:00.000Z CASTING: x\n2026-01-01T00:00:01.000Z FAILURE: cast failed: no voices')])
      .client.waitFor('job-1', { pollIntervalMs: 1 })
      .catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(DubbingJobFailedError);
    expect(failed).toMatchObject({ code: 'job_failed', message: 'Dubbing job job-1 ended in FAILURE: cast failed: no voices' });
    expect((failed as DubbingJobFailedError).job.status).toBe('FAILURE');

    const controller = new AbortController();
    const waiting = scripted([record('CASTING')]).client.waitFor('job-1', { pollIntervalMs: 5, signal: controller.signal });
    setTimeout(() => controller.abort(), 20);
    await expect(waiting).rejects.toMatchObject({ code: 'aborted' });

    await expect(scripted([record('CASTING')]).client.waitFor('job-1', { pollIntervalMs: 5, timeoutMs: 30 })).rejects.toMatchObject({ code: 'timeout' });
  });

  it('sends the documented requests and falls back to a GET when an update answers without a record', async () => {
    const { client, requests } = scripted([record('CASTING')], { 'PUT /dubbing/job/a%2Fb': {}, 'GET /dubbing/jobs': { items: [record('CASTING')], nextToken: 'T' } });
    expect((await client.update('a/b', { metadata: { k: 'v' } })).status).toBe('CASTING');
    expect(requests.slice(0, 2).map((r) => `${r.method} ${new URL(r.url).pathname}`)).toEqual(['PUT /dubbing/job/a%2Fb', 'GET /dubbing/job/a%2Fb']);
    await client.list({ nextToken: 'abc', limit: 3 });
    expect(new URL(requests.at(-1)!.url).search).toBe('?next_token=abc&limit=3');
    await client.advance('j', 'reject');
    expect(requests.at(-1)).toMatchObject({ method: 'POST', body: '{"decision":"reject"}' });
  });

  it('listAll walks every page and stops when the caller breaks out', async () => {
    const tokens: Array<string | null> = [];
    const fetchPages = (async (url: string | URL) => {
      const token = new URL(String(url)).searchParams.get('next_token');
      tokens.push(token);
      const page = tokens.length;
      const body = page < 3 ? { items: [{ ...record('CASTING'), requestId: `p${page}` }], nextToken: `t${page}` } : { items: [{ ...record('CASTING'), requestId: 'last' }] };
      return new Response(JSON.stringify(body), { status: 200 });
    }) as typeof fetch;
    const client = new DubbingClient({ baseUrl: 'http://127.0.0.1:1', fetch: fetchPages });
    const ids: string[] = [];
    for await (const job of client.listAll()) ids.push(job.requestId);
    expect(ids).toEqual(['p1', 'p2', 'last']);
    expect(tokens).toEqual([null, 't1', 't2']);
    tokens.length = 0;
    for await (const job of client.listAll()) if (job.requestId === 'p1') break;
    expect(tokens).toEqual([null]);
  });
});
