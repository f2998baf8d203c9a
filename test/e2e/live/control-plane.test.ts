import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LiveClient } from '../../../src/client/live.js';
import { AuthenticationError, BadRequestError, NotFoundError, PermissionDeniedError, RateLimitError, ValidationError } from '../../../src/errors.js';
import { LIVE_INPUT_STREAM_TYPES, type LiveServiceConfig } from '../../../src/protocol/live.js';
import type { RunningServer } from '../../../src/server/app.js';
import { startTestServer, TEST_API_KEY } from '../../helpers/server.js';
import { handshakeStatus } from './socket.js';
import { EU_KEY, hlsConfig, LIVE_TEST_CONFIG, NO_LIVE_KEY, SMALL_CAP_KEY, streamUrl, THIRD_PARTY_KEY } from './fixtures.js';

let server: RunningServer;
let live: LiveClient;
const client = (apiKey: string, maxRetries = 0): LiveClient => new LiveClient({ baseUrl: server.url, apiKey, maxRetries });
const raw = (path: string, init: RequestInit = {}, key: string | null = TEST_API_KEY): Promise<Response> =>
  fetch(server.url + path, { ...init, headers: { ...(init.body ? { 'content-type': 'application/json' } : {}), ...(key ? { 'x-api-key': key } : {}) } });

beforeAll(async () => {
  // The compatibility matrix alone sends ~100 requests: lift the per-key bucket for this server.
  process.env.VOXPIPE_LIVE_BURST = '10000';
  server = await startTestServer({ config: LIVE_TEST_CONFIG });
  delete process.env.VOXPIPE_LIVE_BURST;
  live = client(TEST_API_KEY);
});
afterAll(() => server.close());

describe('live services CRUD', () => {
  it('creates (201), gets, lists, replaces in place, and deletes (204)', async () => {
    const res = await raw('/live/services', { method: 'POST', body: JSON.stringify(hlsConfig(undefined, 'Morning News')) });
    expect(res.status).toBe(201);
    const created = (await res.json()) as { id: number; serviceId: number; state: string };
    expect(created.serviceId).toBe(created.id);
    expect(created.state).toBe('stopped');

    const fetched = await live.getService(created.id);
    expect(fetched.config.name).toBe('Morning News');

    const updated = await live.updateService(created.id, (config) => ({ ...config, name: 'Evening News' }));
    expect(updated.id).toBe(created.id);
    expect((await live.getService(created.id)).config.name).toBe('Evening News');

    const page = await live.listServices({ search: 'evening' });
    expect(page.items.map((s) => s.id)).toEqual([created.id]);
    expect(page.total).toBe(1);

    const del = await raw(`/live/services/${created.id}`, { method: 'DELETE' });
    expect(del.status).toBe(204);
    await expect(live.getService(created.id)).rejects.toBeInstanceOf(NotFoundError);
  });

  it('pages and filters by scope', async () => {
    const ids: number[] = [];
    for (const name of ['p-a', 'p-b', 'p-c']) ids.push((await live.createService(hlsConfig(undefined, name))).id);
    await live.start(ids[1] as number);
    const first = await live.listServices({ search: 'p-', perPage: 2, page: 1 });
    const second = await live.listServices({ search: 'p-', perPage: 2, page: 2 });
    expect(first.items.map((s) => s.config.name)).toEqual(['p-a', 'p-b']);
    expect(second.items.map((s) => s.config.name)).toEqual(['p-c']);
    expect(first.total).toBe(3);
    expect((await live.listServices({ search: 'p-', scope: 'running' })).items.map((s) => s.id)).toEqual([ids[1]]);
    expect((await live.listServices({ search: 'p-', scope: 'stopped' })).items.map((s) => s.id)).toEqual([ids[0], ids[2]]);
    expect((await raw('/live/services?scope=bogus')).status).toBe(400);
    expect((await raw('/live/services?perPage=0')).status).toBe(400);
    for (const id of ids) await live.deleteService(id);
  });

  it('start and stop change state and status', async () => {
    const { id } = await live.createService({ ...hlsConfig(), input: { type: 'SrtPushSource' }, outputs: [{ type: '608' }] });
    expect((await live.status(id)).state).toBe('stopped');
    expect((await live.start(id)).state).toBe('running');
    const running = await live.status(id);
    expect(running).toMatchObject({ serviceId: id, state: 'running', active: true, inputConnected: false, lastError: null });
    expect(running.startedAt).not.toBeNull();
    expect(running.captions['en-US']).toBe(`${server.url}/live/services/${id}/captions/en-US/playlist.m3u8`);
    expect((await live.stop(id)).state).toBe('stopped');
    expect(await live.status(id)).toMatchObject({ state: 'stopped', active: false, startedAt: null });
    await live.deleteService(id);
  });
});

describe('live errors', () => {
  it('400 on a malformed body, with FastAPI-style detail', async () => {
    const res = await raw('/live/services', { method: 'POST', body: JSON.stringify({ name: 'x', outputs: [] }) });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { code: string; detail: Array<{ loc: unknown[] }> };
    expect(body.code).toBe('bad_request');
    expect(body.detail.length).toBeGreaterThan(0);
    expect((await raw('/live/services', { method: 'POST', body: '{not json' })).status).toBe(400);
    for (const body of ['[]', '42', '"config"', 'null', JSON.stringify({ ...hlsConfig(), outputs: 'HlsPushOutput' }), JSON.stringify({ ...hlsConfig(), name: 5 })]) {
      expect((await raw('/live/services', { method: 'POST', body })).status, body).toBe(400);
    }
    const created = await live.createService(hlsConfig());
    expect((await raw(`/live/services/${created.id}`, { method: 'PUT', body: JSON.stringify({ ...hlsConfig(), translations: [{ language: 'en-US' }] }) })).status).toBe(400);
    await live.deleteService(created.id);
    await expect(live.createService({ name: '' } as LiveServiceConfig)).rejects.toBeInstanceOf(BadRequestError);
  });

  it('401 without or with a wrong key; 403 when live is not enabled', async () => {
    expect((await raw('/live/services', {}, null)).status).toBe(401);
    await expect(client('dd-ffffffffffffffffffffffffffffffff').listServices()).rejects.toBeInstanceOf(AuthenticationError);
    await expect(client(NO_LIVE_KEY).listServices()).rejects.toBeInstanceOf(PermissionDeniedError);
    expect((await raw('/live/enums/input-stream-types', {}, NO_LIVE_KEY)).status).toBe(403);
  });

  it('404 for unknown, foreign and malformed ids and unknown enum inputs', async () => {
    await expect(live.getService(999_999)).rejects.toBeInstanceOf(NotFoundError);
    expect((await raw('/live/services/abc/status')).status).toBe(404);
    const mine = await live.createService(hlsConfig());
    await expect(client(SMALL_CAP_KEY).getService(mine.id)).rejects.toBeInstanceOf(NotFoundError);
    expect((await raw(`/live/services/${mine.id}`, { method: 'DELETE' }, SMALL_CAP_KEY)).status).toBe(404);
    await expect(live.outputStreamTypes('NopeSource')).rejects.toBeInstanceOf(NotFoundError);
    await live.deleteService(mine.id);
  });

  it('422 with the provider error in `upstream` for configs invalid against the enums', async () => {
    const bad: LiveServiceConfig = {
      ...hlsConfig(),
      buildVersion: '1999.01.0',
      outputs: [{ type: 'SrtPushOutput', url: 'srt://127.0.0.1:9' }],
      translations: [{ language: 'en-US', ttsEngine: 'voxpipe', voice: 'no-such-voice' }],
    };
    const error = await live.createService(bad).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    const upstream = (error as ValidationError).upstream as { provider: string; errors: Array<{ code: string; field: string }> };
    expect(upstream.provider).toBeTruthy();
    expect(upstream.errors.map((e) => e.code).sort()).toEqual(['INCOMPATIBLE_OUTPUT', 'INVALID_BUILD_VERSION', 'INVALID_VOICE']);
    expect((error as ValidationError).details.map((d) => d.loc.join('.'))).toContain('body.outputs.0.type');
    const created = await live.createService(hlsConfig());
    await expect(live.replaceService(created.id, { ...hlsConfig(), input: { type: 'HlsPullSource' } })).rejects.toBeInstanceOf(ValidationError);
    await expect(live.createService({ ...hlsConfig(), input: { type: 'CarrierPigeon' } })).rejects.toBeInstanceOf(ValidationError);
    // URL schemes per stream type: an HLS pull input over SRT, an RTMP push output over HTTP.
    const schemes = await live
      .createService({ ...hlsConfig(), input: { type: 'HlsPullSource', url: 'srt://127.0.0.1:9' } })
      .catch((e: unknown) => ((e as ValidationError).upstream as { errors: Array<{ code: string; field: string }> }).errors);
    expect(schemes).toEqual([expect.objectContaining({ code: 'INVALID_INPUT_URL', field: 'input.url' })]);
    const rtmp = { ...hlsConfig(), input: { type: 'RtmpPushSource' }, outputs: [{ type: 'RtmpPushOutput', url: 'http://127.0.0.1:9/x' }] };
    const outputErrors = await live.createService(rtmp).catch((e: unknown) => ((e as ValidationError).upstream as { errors: Array<{ code: string }> }).errors);
    expect(outputErrors).toEqual([expect.objectContaining({ code: 'INVALID_OUTPUT_URL' })]);
    await live.deleteService(created.id);
  });

  it('enforces output compatibility from the same table the enum endpoint serves', async () => {
    const inputs = await live.inputStreamTypes();
    expect(inputs).toEqual([...LIVE_INPUT_STREAM_TYPES]);
    const table = new Map<string, string[]>();
    for (const input of inputs) table.set(input, await live.outputStreamTypes(input));
    const allOutputs = [...new Set([...table.values()].flat())];
    expect(table.get('HlsPullSource')).toEqual(['HlsPushOutput', '608']);
    for (const [input, compatible] of table) {
      for (const output of allOutputs) {
        const config: LiveServiceConfig = {
          ...hlsConfig(),
          input: { type: input, url: streamUrl(input, 'in') },
          outputs: [{ type: output, url: streamUrl(output, 'out') }],
        };
        const result = await live.createService(config).catch((e: unknown) => e);
        if (compatible.includes(output)) {
          expect(result, `${input} → ${output}`).not.toBeInstanceOf(Error);
          await live.deleteService((result as { id: number }).id);
        } else {
          expect(result, `${input} → ${output}`).toBeInstanceOf(ValidationError);
        }
      }
    }
  });

  it('the cap counts running and stopped services; PUT uses no slot; DELETE frees one', async () => {
    const small = client(SMALL_CAP_KEY);
    const a = await small.createService(hlsConfig(undefined, 'a'));
    await small.createService(hlsConfig(undefined, 'b'));
    await small.start(a.id);
    const error = await small.createService(hlsConfig(undefined, 'c')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PermissionDeniedError);
    expect((error as PermissionDeniedError).body).toMatchObject({ code: 'service_cap_reached' });
    expect((error as Error).message).toMatch(/PUT/);
    expect((error as Error).message).toMatch(/DELETE/);
    expect((await small.replaceService(a.id, hlsConfig(undefined, 'a2'))).config.name).toBe('a2');
    await small.deleteService(a.id);
    expect((await small.createService(hlsConfig(undefined, 'c'))).config.name).toBe('c');
  });
});

describe('live enums', () => {
  it('serves build versions, languages, engines and per-engine voice shapes', async () => {
    expect(await live.buildVersions()).toContain('2025.11.2');
    expect(await live.translationLanguages()).toContain('es-ES');
    const engines = await live.ttsEngines();
    expect(engines.find((e) => e.id === 'voxpipe')).toMatchObject({ thirdParty: false, enabled: true });
    expect(engines.find((e) => e.id === 'elevenlabs')).toMatchObject({ thirdParty: true, enabled: false });
    const own = await live.ttsVoices('es-ES', 'voxpipe');
    expect('items' in own && own.items.map((v) => v.name)).toEqual(['Mateo']);
    const third = await live.ttsVoices('es-ES', 'elevenlabs');
    expect('voices' in third && third.voices.length).toBeGreaterThan(0);
    await expect(live.ttsVoices('xx-XX', 'voxpipe')).rejects.toBeInstanceOf(NotFoundError);
  });

  it('a third-party engine is usable only where enabled', async () => {
    const third = await live.ttsVoices('es-ES', 'elevenlabs');
    const voice = 'voices' in third ? (third.voices[0]?.voice_id ?? '') : '';
    const config: LiveServiceConfig = { ...hlsConfig(), translations: [{ language: 'es-ES', ttsEngine: 'elevenlabs', voice }] };
    await expect(live.createService(config)).rejects.toBeInstanceOf(ValidationError);
    const enabled = client(THIRD_PARTY_KEY);
    const created = await enabled.createService(config);
    await enabled.deleteService(created.id);
  });
});

describe('rate limit and restart', () => {
  it('429 with Retry-After once the per-key bucket is empty', async () => {
    process.env.VOXPIPE_LIVE_RATE = '0.5';
    process.env.VOXPIPE_LIVE_BURST = '3';
    const limited = await startTestServer({ config: LIVE_TEST_CONFIG });
    delete process.env.VOXPIPE_LIVE_RATE;
    delete process.env.VOXPIPE_LIVE_BURST;
    try {
      const get = (key: string): Promise<Response> => fetch(`${limited.url}/live/enums/build-versions`, { headers: { 'x-api-key': key } });
      const statuses = [];
      for (let i = 0; i < 4; i++) statuses.push((await get(TEST_API_KEY)).status);
      expect(statuses).toEqual([200, 200, 200, 429]);
      const res = await get(TEST_API_KEY);
      expect(res.headers.get('retry-after')).toBe('2');
      expect((await get(SMALL_CAP_KEY)).status).toBe(200);
      const error = await new LiveClient({ baseUrl: limited.url, apiKey: TEST_API_KEY, maxRetries: 0 }).buildVersions().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RateLimitError);
    } finally {
      await limited.close();
    }
  });

  it('a server with a region refuses keys of the other region (401) on REST and the captions socket', async () => {
    process.env.VOXPIPE_REGION = 'eu';
    const eu = await startTestServer({ config: LIVE_TEST_CONFIG });
    delete process.env.VOXPIPE_REGION;
    try {
      const error = await new LiveClient({ baseUrl: eu.url, apiKey: TEST_API_KEY, maxRetries: 0 }).listServices().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AuthenticationError);
      expect((error as Error).message).toMatch(/us region/);
      const europe = new LiveClient({ baseUrl: eu.url, apiKey: EU_KEY });
      const { id } = await europe.createService(hlsConfig());
      const socket = (key: string): Promise<number> => handshakeStatus(`${eu.url.replace('http', 'ws')}/live/services/${id}/captions/ws?lang=en-US&x-api-key=${key}`);
      expect(await socket(TEST_API_KEY)).toBe(401);
      expect(await handshakeStatus(`${eu.url.replace('http', 'ws')}/live/services/${id}/captions/ws?x-api-key=${EU_KEY}`)).toBe(400);
      // On a server without a region (the default), any region's key works.
      expect((await raw('/live/enums/build-versions', {}, EU_KEY)).status).toBe(200);
    } finally {
      await eu.close();
    }
  });

  it('services and their run state survive a restart', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'voxpipe-live-'));
    try {
      const first = await startTestServer({ dataDir });
      const c1 = new LiveClient({ baseUrl: first.url, apiKey: TEST_API_KEY });
      const kept = await c1.createService(hlsConfig(undefined, 'kept'));
      const running = await c1.createService({ ...hlsConfig(undefined, 'running'), input: { type: 'RtmpPushSource' }, outputs: [{ type: '608' }] });
      await c1.start(running.id);
      await first.close();
      const second = await startTestServer({ dataDir });
      try {
        const c2 = new LiveClient({ baseUrl: second.url, apiKey: TEST_API_KEY });
        expect((await c2.listServices()).items.map((s) => [s.config.name, s.state])).toEqual([
          ['kept', 'stopped'],
          ['running', 'running'],
        ]);
        expect(await c2.status(running.id)).toMatchObject({ state: 'running', active: true });
        expect((await c2.getService(kept.id)).config).toEqual(kept.config);
      } finally {
        await second.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
