import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DubbingClient } from '../../../src/client/dubbing.js';
import { ValidationError } from '../../../src/errors.js';
import type { DubbingJobRequest } from '../../../src/protocol/dubbing.js';
import type { RunningServer } from '../../../src/server/app.js';
import { startTestServer, TEST_API_KEY } from '../../helpers/server.js';
import { automatedJob, startDubbingStack, type DubbingStack } from './harness.js';
import { aviHead, mp4File, mpegTsHead, webmHead, type MediaServer } from './media-fixtures.js';

interface Answer {
  status: number;
  /** Parsed JSON body; assertions inspect arbitrary shapes. */
  body: any;
}

describe('dubbing API: every endpoint, every 422', () => {
  let stack: DubbingStack;
  let media: MediaServer;
  let server: RunningServer;
  let client: DubbingClient;
  let video: string;
  let minimal: DubbingJobRequest;

  const call = async (method: string, path: string, body?: unknown, init: { key?: string | null; raw?: string; type?: string } = {}): Promise<Answer> => {
    const headers: Record<string, string> = {};
    if (init.key !== null) headers['x-api-key'] = init.key ?? TEST_API_KEY;
    if (body !== undefined || init.raw !== undefined) headers['content-type'] = init.type ?? 'application/json';
    const res = await fetch(server.url + path, { method, headers, ...(init.raw !== undefined ? { body: init.raw } : body === undefined ? {} : { body: JSON.stringify(body) }) });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };
  /** POSTs a create request and returns the 422 detail items. */
  const rejects = async (body: unknown): Promise<Array<{ loc: unknown[]; msg: string; type: string }>> => {
    const answer = await call('POST', '/dubbing/job', body);
    expect(answer.status, JSON.stringify(answer.body)).toBe(422);
    return answer.body.detail;
  };

  beforeAll(async () => {
    stack = await startDubbingStack(
      {
        '/v/ep.mp4': mp4File(10_000),
        '/v/ep.mov': mp4File(4000, { brand: 'qt  ' }),
        '/v/ep.webm': webmHead(12_500),
        '/v/ep.ts': mpegTsHead(),
        '/v/ep.avi': aviHead(250),
        '/v/not-video.txt': Buffer.from('hello, this is plainly text and not a video container at all'),
        '/v/empty.mp4': Buffer.alloc(0),
        '/v/long.mp4': mp4File(7 * 3_600_000),
      },
      { redirects: { '/r/ok.mp4': '/v/ep.mp4', '/r/away.mp4': 'http://192.0.2.1/ep.mp4', '/r/loop.mp4': '/r/loop.mp4' } },
    );
    ({ media, server, client } = stack);
    video = `${media.url}/v/ep.mp4`;
    minimal = { sourceLocale: 'en-US', targetLocale: 'es-ES', sourceVideoPath: video };
  });
  afterAll(() => stack.close());

  it('needs an API key on every endpoint (401 with a FastAPI detail)', async () => {
    for (const [method, path] of [
      ['POST', '/dubbing/job'],
      ['GET', '/dubbing/job/x'],
      ['PUT', '/dubbing/job/x'],
      ['PATCH', '/dubbing/job/x'],
      ['DELETE', '/dubbing/job/x'],
      ['POST', '/dubbing/job/x/sources'],
      ['GET', '/dubbing/jobs'],
      ['POST', '/dubbing/admin/job/x/advance'],
    ] as const) {
      for (const key of [null, 'dd-ffffffffffffffffffffffffffffffff']) {
        const answer = await call(method, path, undefined, { key });
        expect(answer.status, `${method} ${path}`).toBe(401);
        expect(answer.body.detail).toMatch(/API key/);
      }
    }
    await expect(new DubbingClient({ baseUrl: server.url }).list()).rejects.toMatchObject({ code: 'unauthorized' });
  });

  it('creates jobs from the minimal request and accepts every recognised container', async () => {
    for (const path of ['v/ep.mp4', 'v/ep.mov', 'v/ep.webm', 'v/ep.ts', 'v/ep.avi', 'r/ok.mp4']) {
      const created = await client.create({ ...minimal, sourceVideoPath: `${media.url}/${path}` });
      expect(created.requestId).toMatch(/^[0-9a-f-]{36}$/);
      const job = await client.get(created.requestId);
      expect(job).toMatchObject({ requestId: created.requestId, metadata: {}, additionalProducts: [] });
      expect(job.exportPath).toBe(`s3://voxpipe-dubbing/${created.requestId}/dubbed.es-ES.wav`);
    }
    expect(media.ranges.every((r) => r.startsWith('bytes='))).toBe(true);
  });

  it('rejects a missing, empty, non-object or malformed body', async () => {
    expect(await rejects(undefined)).toEqual([{ loc: ['body'], msg: 'Field required', type: 'missing' }]);
    const empty = await call('POST', '/dubbing/job', undefined, { raw: '' });
    expect(empty).toEqual({ status: 422, body: { detail: [{ loc: ['body'], msg: 'Field required', type: 'missing' }] } });
    const broken = await call('POST', '/dubbing/job', undefined, { raw: '{"sourceLocale": ' });
    expect(broken.status).toBe(422);
    expect(broken.body.detail).toEqual([{ loc: ['body', 0], msg: 'JSON decode error', type: 'json_invalid' }]);
    expect(await rejects([minimal])).toEqual([{ loc: ['body'], msg: 'Input should be a valid dictionary or object to extract fields from', type: 'model_attributes_type' }]);
    expect(await rejects({})).toEqual(['sourceLocale', 'targetLocale', 'sourceVideoPath'].map((f) => ({ loc: ['body', f], msg: 'Field required', type: 'missing' })));
  });

  it('resolves locales as real BCP-47 language-region tags', async () => {
    const cases: Array<[string, RegExp]> = [
      ['en', /has no region/],
      ['xx-US', /unknown language 'xx'/],
      ['en-ZZ', /unknown region 'ZZ'/],
      ['en-QM', /unknown region 'QM'/],
      ['english please', /not a BCP-47 language tag/],
      ['', /not a BCP-47 language tag/],
    ];
    for (const [tag, msg] of cases) {
      const [item, ...rest] = await rejects({ ...minimal, sourceLocale: tag });
      expect(rest).toEqual([]);
      expect(item).toMatchObject({ loc: ['body', 'sourceLocale'], type: 'value_error' });
      expect(item?.msg).toMatch(/^Value error, /);
      expect(item?.msg).toMatch(msg);
    }
    expect(await rejects({ ...minimal, targetLocale: 42 })).toEqual([{ loc: ['body', 'targetLocale'], msg: 'Input should be a valid string', type: 'string_type' }]);
    expect(await rejects({ ...minimal, targetLocale: 'EN-us' })).toEqual([{ loc: ['body', 'targetLocale'], msg: 'Value error, targetLocale must differ from sourceLocale (both resolve to en-US)', type: 'value_error' }]);
    const { requestId } = await client.create({ ...minimal, sourceLocale: 'iw-il', targetLocale: 'es-419' });
    expect((await client.get(requestId)).exportPath).toMatch(/dubbed\.es-419\.wav$/);
  });

  it('validates the source video: scheme, reachability, container', async () => {
    const cases: Array<[string, RegExp]> = [
      ['ftp://host/ep.mp4', /must be an s3:\/\/ or https:\/\/ path/],
      ['http://example.com/ep.mp4', /must use https:\/\//],
      ['https://127.0.0.1:1/ep.mp4', /could not be read/],
      [`${media.url}/v/missing.mp4`, /not found \(HTTP 404\)/],
      [`${media.url}/v/not-video.txt`, /not a recognised video container/],
      [`${media.url}/v/empty.mp4`, /empty/],
      ['s3://Bad_Bucket/ep.mp4', /not a valid S3 bucket name/],
      ['s3://bucket-ok/', /must name an object/],
      ['s3://bucket-ok/a/../ep.mp4', /must not contain/],
      ['s3://v/ep.mp4', /not a valid S3 bucket name/],
      ['s3://vvv/ep.mp4', /not found/],
      [`${media.url}/r/away.mp4`, /redirects to a refused location: sourceVideoPath must use https:\/\//],
      [`${media.url}/r/loop.mp4`, /redirects more than 5 times/],
    ];
    for (const [sourceVideoPath, msg] of cases) {
      const detail = await rejects({ ...minimal, sourceVideoPath });
      expect(detail, sourceVideoPath).toHaveLength(1);
      expect(detail[0]).toMatchObject({ loc: ['body', 'sourceVideoPath'], type: 'value_error' });
      expect(detail[0]?.msg, sourceVideoPath).toMatch(msg);
    }
  });

  it('validates every optional field: s3 prefixes, enums, types, dates, metadata', async () => {
    const expectOne = async (patch: Record<string, unknown>, loc: unknown[], type: string, msg?: RegExp): Promise<void> => {
      const detail = await rejects({ ...minimal, ...patch });
      expect(detail, JSON.stringify(patch)).toHaveLength(1);
      expect(detail[0]).toMatchObject({ loc, type });
      if (msg) expect(detail[0]?.msg).toMatch(msg);
    };
    for (const field of ['exportPath', 'sourceSpeechTrackPath', 'sourceMAndETrackPath', 'uncompressedAudioPath']) {
      await expectOne({ [field]: 'https://bucket/x.wav' }, ['body', field], 'value_error', /^Value error, must start with 's3:\/\/'$/);
      await expectOne({ [field]: 7 }, ['body', field], 'string_type');
    }
    await expectOne({ workflowType: 'FAST' }, ['body', 'workflowType'], 'enum', /^Input should be 'AUTOMATED', 'MANAGED' or 'MANAGED_HIGH_TIER'$/);
    await expectOne({ mixType: 'STEREO' }, ['body', 'mixType'], 'enum', /^Input should be 'UN_STYLE' or 'REPLACEMENT'$/);
    for (const field of ['contentId', 'batchId', 'batchName', 'titleName', 'genreName', 'maturityRating', 'contentType']) await expectOne({ [field]: { a: 1 } }, ['body', field], 'string_type');
    await expectOne({ priority: 1.5 }, ['body', 'priority'], 'int_from_float');
    await expectOne({ priority: 'high' }, ['body', 'priority'], 'int_type', /^Input should be a valid integer$/);
    await expectOne({ needByDate: '2024-13-45' }, ['body', 'needByDate'], 'datetime_from_date_parsing', /^Input should be a valid datetime/);
    await expectOne({ needByDate: 'next week' }, ['body', 'needByDate'], 'datetime_from_date_parsing');
    await expectOne({ isVideoWaterMarked: 'yes' }, ['body', 'isVideoWaterMarked'], 'bool_type', /^Input should be a valid boolean$/);
    await expectOne({ metadata: 'k=v' }, ['body', 'metadata'], 'dict_type', /^Input should be a valid dictionary$/);
    await expectOne({ metadata: { ok: 'x', bad: 3 } }, ['body', 'metadata', 'bad'], 'string_type');
    await expectOne({ segments: {} }, ['body', 'segments'], 'list_type', /^Input should be a valid list$/);
    await expectOne({ additionalSources: 'CC' }, ['body', 'additionalSources'], 'list_type');
    await expectOne({ additionalProducts: [{ product: 'SRT', assetPath: 's3://dub-out/a.srt' }], exportPath: 's3://dub-out/a.srt' }, ['body', 'additionalProducts', 0, 'assetPath'], 'value_error', /same as exportPath/);
    // Everything wrong at once is reported at once, in field order.
    const all = await rejects({ sourceLocale: 'en', targetLocale: 'es-ES', sourceVideoPath: video, workflowType: 'X', priority: 'p' });
    expect(all.map((d) => d.loc.at(-1))).toEqual(['sourceLocale', 'workflowType', 'priority']);
  });

  it('validates segments: required fields, types, timing, unique ids, the video duration', async () => {
    const seg = { timestampStart: 1000, timestampEnd: 2000, characterName: 'John', characterId: 'c1', sourceDialogue: 'Hi' };
    expect(await rejects({ ...minimal, segments: [7] })).toEqual([{ loc: ['body', 'segments', 0], msg: 'Input should be a valid dictionary or object to extract fields from', type: 'model_attributes_type' }]);
    expect(await rejects({ ...minimal, segments: [{}] })).toEqual(
      ['timestampStart', 'timestampEnd', 'characterName', 'characterId', 'sourceDialogue'].map((f) => ({ loc: ['body', 'segments', 0, f], msg: 'Field required', type: 'missing' })),
    );
    expect(await rejects({ ...minimal, segments: [seg, { ...seg, timestampStart: -5 }] })).toEqual([
      { loc: ['body', 'segments', 1, 'timestampStart'], msg: 'Input should be greater than or equal to 0', type: 'greater_than_equal' },
    ]);
    expect(await rejects({ ...minimal, segments: [{ ...seg, timestampEnd: '2s' }] })).toEqual([{ loc: ['body', 'segments', 0, 'timestampEnd'], msg: 'Input should be a valid integer', type: 'int_type' }]);
    expect(await rejects({ ...minimal, segments: [{ ...seg, timestampEnd: 1000 }] })).toEqual([
      { loc: ['body', 'segments', 0, 'timestampEnd'], msg: 'Value error, timestampEnd (1000) must be after timestampStart (1000)', type: 'value_error' },
    ]);
    expect(await rejects({ ...minimal, segments: [{ ...seg, targetDialogue: ['Hola'] }] })).toEqual([{ loc: ['body', 'segments', 0, 'targetDialogue'], msg: 'Input should be a valid string', type: 'string_type' }]);
    expect(await rejects({ ...minimal, segments: [{ ...seg, segmentId: 'a' }, { ...seg, segmentId: 'a' }] })).toEqual([
      { loc: ['body', 'segments', 1, 'segmentId'], msg: "Value error, segmentId 'a' is also used by segments[0]", type: 'value_error' },
    ]);
    expect(await rejects({ ...minimal, segments: [seg, { ...seg, timestampStart: 9000, timestampEnd: 10_001 }] })).toEqual([
      { loc: ['body', 'segments', 1, 'timestampEnd'], msg: 'Value error, segment ends at 10001 ms, after the end of the source video (10000 ms)', type: 'value_error' },
    ]);
    // WebM and AVI durations are read from the container too.
    expect((await rejects({ ...minimal, sourceVideoPath: `${media.url}/v/ep.webm`, segments: [{ ...seg, timestampEnd: 12_600 }] }))[0]?.msg).toMatch(/source video \(12500 ms\)/);
    expect((await rejects({ ...minimal, sourceVideoPath: `${media.url}/v/ep.avi`, segments: [{ ...seg, timestampEnd: 10_001 }] }))[0]?.msg).toMatch(/source video \(10000 ms\)/);
    await expect(client.create({ ...minimal, sourceVideoPath: `${media.url}/v/ep.ts`, segments: [{ ...seg, timestampEnd: 3_600_000 }] })).resolves.toHaveProperty('requestId');
    expect(await rejects({ ...minimal, sourceVideoPath: `${media.url}/v/ep.ts`, segments: [{ ...seg, timestampEnd: 21_600_001 }] })).toEqual([
      { loc: ['body', 'segments', 0, 'timestampEnd'], msg: 'Value error, segment ends at 21600001 ms, more than the 21600000 ms the reference service dubs', type: 'value_error' },
    ]);
    expect((await rejects({ ...minimal, sourceVideoPath: `${media.url}/v/long.mp4` }))[0]?.msg).toMatch(/lasts 25200000 ms, more than the 21600000 ms/);
  });

  it('validates additional sources and products', async () => {
    expect(await rejects({ ...minimal, additionalSources: [{ source: 'SUBS', assetPath: 'https://x/y' }, {}] })).toEqual([
      { loc: ['body', 'additionalSources', 0, 'source'], msg: "Input should be 'AUDIO_HINTS', 'CC_SDH', 'MISC' or 'DFXP_SUBTITLES'", type: 'enum' },
      { loc: ['body', 'additionalSources', 0, 'assetPath'], msg: "Value error, must start with 's3://'", type: 'value_error' },
      { loc: ['body', 'additionalSources', 1, 'source'], msg: 'Field required', type: 'missing' },
      { loc: ['body', 'additionalSources', 1, 'assetPath'], msg: 'Field required', type: 'missing' },
    ]);
    const products = await rejects({
      ...minimal,
      additionalProducts: [
        { product: 'MP3', assetPath: 's3://dub-out/a' },
        { product: 'SRT', assetPath: 's3://dub-out/b', state: 'LOST' },
        { product: 'SRT', assetPath: 's3://dub-out/c.srt' },
        { product: 'WEBVTT', assetPath: 's3://dub-out/c.srt' },
      ],
    });
    expect(products.map((d) => [d.loc.slice(2), d.type])).toEqual([
      [[0, 'product'], 'enum'],
      [[1, 'state'], 'enum'],
    ]);
    expect(products[0]?.msg).toBe("Input should be 'SDH', 'SRT', 'WEBVTT', 'TRANSCRIPT', 'AS_RECORDED_SCRIPT', 'AUDIO_HINTS', 'SOURCE_VIDEO', 'SOURCE_AUDIO' or 'ITT_SUBTITLES'");
    expect(await rejects({ ...minimal, additionalProducts: [{ product: 'SRT', assetPath: 's3://dub-out/c.srt' }, { product: 'WEBVTT', assetPath: 's3://dub-out/c.srt' }] })).toEqual([
      { loc: ['body', 'additionalProducts', 1, 'assetPath'], msg: 'Value error, assetPath is also used by additionalProducts[0]', type: 'value_error' },
    ]);
    const created = await client.create({
      ...minimal,
      additionalSources: [{ source: 'CC_SDH', assetPath: 's3://src/cc.dfxp' }],
      additionalProducts: [{ product: 'SRT', assetPath: 's3://dub-out/ok.srt', state: 'DELIVERED' }],
    });
    expect((await client.get(created.requestId)).additionalProducts).toEqual([{ product: 'SRT', assetPath: 's3://dub-out/ok.srt', state: 'PENDING_DELIVERY' }]);
  });

  it('surfaces 422 details as a typed ValidationError in the client', async () => {
    const error = await client.create({ ...minimal, targetLocale: 'es' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).details).toEqual([{ loc: ['body', 'targetLocale'], msg: "Value error, 'es' has no region: use the language-region form, e.g. es-US", type: 'value_error' }]);
    expect((error as ValidationError).message).toBe("body.targetLocale: Value error, 'es' has no region: use the language-region form, e.g. es-US");
  });

  it('answers 404 for unknown jobs on every job endpoint', async () => {
    for (const [method, path, body] of [
      ['GET', '/dubbing/job/nope', undefined],
      ['PUT', '/dubbing/job/nope', {}],
      ['PATCH', '/dubbing/job/nope', { generalFeedback: 'x' }],
      ['DELETE', '/dubbing/job/nope', undefined],
      ['POST', '/dubbing/job/nope/sources', { source: 'MISC', assetPath: 's3://src/m.txt' }],
      ['POST', '/dubbing/admin/job/nope/advance', {}],
    ] as const) {
      expect(await call(method, path, body), `${method} ${path}`).toEqual({ status: 404, body: { detail: 'Dubbing job nope not found' } });
    }
    await expect(client.get('nope')).rejects.toMatchObject({ code: 'not_found', status: 404 });
    expect(await call('GET', '/dubbing/no-such-thing')).toEqual({ status: 404, body: { detail: 'Not Found' } });
  });

  it('updates needByDate and metadata (PUT), validating both', async () => {
    const { requestId } = await client.create({ ...minimal, metadata: { a: '1', b: '2' } });
    expect((await call('PUT', `/dubbing/job/${requestId}`, { needByDate: 'soon', metadata: [] })).body.detail).toEqual([
      { loc: ['body', 'needByDate'], msg: expect.stringMatching(/^Input should be a valid datetime/), type: 'datetime_from_date_parsing' },
      { loc: ['body', 'metadata'], msg: 'Input should be a valid dictionary', type: 'dict_type' },
    ]);
    expect((await call('PUT', `/dubbing/job/${requestId}`, 'x')).body.detail[0].type).toBe('model_attributes_type');
    const updated = await client.update(requestId, { metadata: { priority: 'high' } });
    expect(updated.metadata).toEqual({ priority: 'high' });
    expect((await client.update(requestId, { needByDate: '2030-07-01T12:00:00Z' })).metadata).toEqual({ priority: 'high' });
    expect((await client.get(requestId)).metadata).toEqual({ priority: 'high' });
  });

  it('accepts feedback only on delivered jobs and validates every issue field', async () => {
    const { requestId: parked } = await client.create({ ...automatedJob(video, 'api-parked'), workflowType: 'MANAGED' });
    await client.waitFor(parked, { until: 'READY_FOR_QC', pollIntervalMs: 5 });
    const conflict = await call('PATCH', `/dubbing/job/${parked}`, { generalFeedback: 'too early' });
    expect(conflict.status).toBe(409);
    expect(conflict.body.detail).toMatch(/is READY_FOR_QC: feedback is accepted only once it is delivered/);

    const { requestId } = await client.create(automatedJob(video, 'api-feedback'));
    await client.waitFor(requestId, { pollIntervalMs: 5 });
    const issue = { timestampStart: 100, timestampEnd: 200, category: 'MIX', severity: 'MINOR', label: 'MIX', details: 'loud', timestamp: '2026-01-01T00:00:00Z' };
    const patch = async (body: unknown): Promise<Array<{ loc: unknown[]; msg: string; type: string }>> => {
      const answer = await call('PATCH', `/dubbing/job/${requestId}`, body);
      expect(answer.status, JSON.stringify(answer.body)).toBe(422);
      return answer.body.detail;
    };
    expect(await patch({})).toEqual([{ loc: ['body', 'generalFeedback'], msg: 'Field required', type: 'missing' }]);
    expect(await patch({ generalFeedback: 'x', issues: [{}] })).toEqual(
      ['timestampStart', 'timestampEnd', 'category', 'severity', 'label', 'details', 'timestamp'].map((f) => ({ loc: ['body', 'issues', 0, f], msg: 'Field required', type: 'missing' })),
    );
    const wrong = await patch({ generalFeedback: 'x', issues: [{ ...issue, category: 'AUDIO', severity: 'BLOCKER', label: 'LOUD', timestamp: 'yesterday' }] });
    expect(wrong.map((d) => [d.loc.at(-1), d.type])).toEqual([
      ['category', 'enum'],
      ['severity', 'enum'],
      ['label', 'enum'],
      ['timestamp', 'datetime_from_date_parsing'],
    ]);
    expect(wrong[0]?.msg).toBe("Input should be 'SYNTHESIS', 'TRANSLATION', 'TIMING' or 'MIX'");
    expect(wrong[1]?.msg).toBe("Input should be 'SUGGESTION', 'MINOR', 'MAJOR' or 'CRITICAL'");
    expect(await patch({ generalFeedback: 'x', issues: [{ ...issue, timestampEnd: 50 }] })).toEqual([
      { loc: ['body', 'issues', 0, 'timestampEnd'], msg: 'Value error, timestampEnd (50) must not be before timestampStart (100)', type: 'value_error' },
    ]);
    expect(await patch({ generalFeedback: 'x', issues: [{ ...issue, timestampStart: 20_000, timestampEnd: 21_000 }] })).toEqual([
      { loc: ['body', 'issues', 0, 'timestampStart'], msg: 'Value error, the issue starts after the end of the dubbed track (10000 ms)', type: 'value_error' },
    ]);
    expect(await patch({ generalFeedback: 'x', exportPath: '/tmp/out.wav', revisionNumber: -1, issues: 'none' })).toEqual([
      { loc: ['body', 'exportPath'], msg: "Value error, must start with 's3://'", type: 'value_error' },
      { loc: ['body', 'issues'], msg: 'Input should be a valid list', type: 'list_type' },
      { loc: ['body', 'revisionNumber'], msg: 'Input should be greater than or equal to 0', type: 'greater_than_equal' },
    ]);
    expect(await patch({ generalFeedback: 'x', additionalProducts: [{ product: 'SRT' }] })).toEqual([{ loc: ['body', 'additionalProducts', 0, 'assetPath'], msg: 'Field required', type: 'missing' }]);
    expect(await patch({ generalFeedback: 'x', revisionNumber: 0 })).toEqual([
      { loc: ['body', 'revisionNumber'], msg: 'Value error, revisionNumber must be greater than the current revision 0', type: 'value_error' },
    ]);
    await expect(client.feedback(requestId, { generalFeedback: 'ok', issues: [issue as never] })).resolves.toEqual({ requestId });
  });

  it('lists jobs newest first with opaque, stable nextToken pagination', async () => {
    const own = new DubbingClient({ baseUrl: server.url, apiKey: TEST_API_KEY });
    const created: string[] = [];
    for (let i = 0; i < 5; i++) created.push((await own.create({ ...minimal, metadata: { n: String(i) } })).requestId);
    const first = await own.list({ limit: 2 });
    expect(first.items.map((j) => j.requestId)).toEqual([created[4], created[3]]);
    expect(first.nextToken).toEqual(expect.any(String));
    created.push((await own.create(minimal)).requestId); // a new job does not shift later pages
    const second = await own.list({ limit: 2, nextToken: first.nextToken! });
    expect(second.items.map((j) => j.requestId)).toEqual([created[2], created[1]]);

    const all: string[] = [];
    for await (const job of own.listAll({ limit: 3 })) all.push(job.requestId);
    expect(new Set(all).size).toBe(all.length);
    expect(all.slice(0, 6)).toEqual([...created].reverse());
    const last = await call('GET', `/dubbing/jobs?limit=100`);
    expect(last.body.nextToken).toBeUndefined();
    expect(last.body.items).toHaveLength(all.length);

    expect(await call('GET', '/dubbing/jobs?next_token=garbage!')).toEqual({
      status: 422,
      body: { detail: [{ loc: ['query', 'next_token'], msg: 'Value error, next_token is not a token returned by this service', type: 'value_error' }] },
    });
    expect((await call('GET', `/dubbing/jobs?next_token=${Buffer.from('v1:-3').toString('base64url')}`)).status).toBe(422);
    for (const limit of ['0', '101', 'ten']) expect((await call('GET', `/dubbing/jobs?limit=${limit}`)).body.detail[0]).toMatchObject({ loc: ['query', 'limit'], type: 'int_parsing' });
  });

  it('cancels jobs for good (DELETE): FAILURE, left out of lists, no more updates', async () => {
    const { requestId } = await client.create(minimal);
    await client.cancel(requestId);
    const job = await client.get(requestId);
    expect(job.status).toBe('FAILURE');
    expect(job.detailedTrace).toMatch(/cancelled by the client$/);
    const listed: string[] = [];
    for await (const j of client.listAll({ limit: 100 })) listed.push(j.requestId);
    expect(listed).not.toContain(requestId);
    expect((await call('PUT', `/dubbing/job/${requestId}`, { metadata: {} })).status).toBe(409);
    expect((await call('PATCH', `/dubbing/job/${requestId}`, { generalFeedback: 'x' })).status).toBe(409);
    await expect(client.waitFor(requestId, { pollIntervalMs: 5 })).rejects.toMatchObject({ code: 'job_failed' });
  });

  it('attaches additional sources (POST …/sources) with validation', async () => {
    const { requestId } = await client.create(minimal);
    expect((await call('POST', `/dubbing/job/${requestId}/sources`, { source: 'SUBS', assetPath: 's3://x' })).body.detail.map((d: { type: string }) => d.type)).toEqual([
      'enum',
      'value_error',
    ]);
    await client.addSource(requestId, { source: 'DFXP_SUBTITLES', assetPath: 's3://src/ep.dfxp' });
    expect((await client.get(requestId)).detailedTrace).toContain('additional source DFXP_SUBTITLES attached: s3://src/ep.dfxp');
  });

  it('validates admin decisions and refuses to advance a job that is not parked', async () => {
    const { requestId } = await client.create(minimal);
    expect((await call('POST', `/dubbing/admin/job/${requestId}/advance`, { decision: 'maybe' })).body.detail).toEqual([
      { loc: ['body', 'decision'], msg: "Input should be 'approve' or 'reject'", type: 'enum' },
    ]);
    await client.waitFor(requestId, { until: () => true, pollIntervalMs: 5 });
    const answer = await call('POST', `/dubbing/admin/job/${requestId}/advance`, {});
    expect(answer.status).toBe(409);
    expect(answer.body.detail).toMatch(/not waiting for a review/);
  });
});

describe('dubbing API without an S3 endpoint', () => {
  it('refuses s3:// source videos with a clear 422', async () => {
    vi.stubEnv('VOXPIPE_S3_ENDPOINT', '');
    const server = await startTestServer();
    try {
      const res = await fetch(`${server.url}/dubbing/job`, {
        method: 'POST',
        headers: { 'x-api-key': TEST_API_KEY, 'content-type': 'application/json' },
        body: JSON.stringify({ sourceLocale: 'en-US', targetLocale: 'de-DE', sourceVideoPath: 's3://bucket/ep.mp4' }),
      });
      expect(res.status).toBe(422);
      expect(await res.json()).toEqual({
        detail: [{ loc: ['body', 'sourceVideoPath'], msg: 'Value error, s3:// source videos need an S3-compatible endpoint and none is configured (set VOXPIPE_S3_ENDPOINT)', type: 'value_error' }],
      });
    } finally {
      await server.close();
    }
  });
});
