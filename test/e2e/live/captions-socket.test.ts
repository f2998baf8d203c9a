import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CaptionsFollower } from '../../../src/client/captions-follower.js';
import { LiveClient } from '../../../src/client/live.js';
import { NotFoundError } from '../../../src/errors.js';
import { parsePlaylist } from '../../../src/hls/playlist.js';
import { CAPTIONS_CLOSE_ENDED, CAPTIONS_CLOSE_GONE, type CaptionsFrame } from '../../../src/protocol/captions.js';
import type { RunningServer } from '../../../src/server/app.js';
import { startTestServer, TEST_API_KEY, wsBase } from '../../helpers/server.js';
import { hlsConfig, LIVE_TEST_CONFIG, NO_LIVE_KEY } from './fixtures.js';
import { expectedCues, startOrigin, type LiveOrigin } from './hls-origin.js';
import { handshakeStatus, openFrames } from './socket.js';

let server: RunningServer;
let origin: LiveOrigin;
let live: LiveClient;
let serviceId: number;

const cues = (frames: CaptionsFrame[]): Array<{ start: number; end: number; text: string }> =>
  frames.flatMap((f) => (f.type === 'cue' ? [{ start: f.start, end: f.end, text: f.text }] : []));
const socketUrl = (id: number, query: string): string => `${wsBase(server)}/live/services/${id}/captions/ws?${query}`;
const withEnv = async <T>(env: Record<string, string>, fn: () => Promise<T>): Promise<T> => {
  Object.assign(process.env, env);
  try {
    return await fn();
  } finally {
    for (const k of Object.keys(env)) delete process.env[k];
  }
};

beforeAll(async () => {
  origin = await startOrigin();
  server = await withEnv({ VOXPIPE_LIVE_RELOAD_MS: '40', VOXPIPE_CAPTIONS_HEARTBEAT_MS: '100' }, () => startTestServer({ config: LIVE_TEST_CONFIG }));
  live = new LiveClient({ baseUrl: server.url, apiKey: TEST_API_KEY });
  serviceId = (await live.createService(hlsConfig(origin.masterUrl))).id;
});
afterAll(async () => {
  await server.close();
  await origin.close();
});

describe('captions socket following an explicit playlist', () => {
  it('resolves the rendition, sends each cue once in order in media time, keeps up with the window, closes at ENDLIST', async () => {
    origin.publish(2);
    const url = socketUrl(serviceId, `lang=en&playlist_url=${encodeURIComponent(origin.masterUrl)}&x-api-key=${TEST_API_KEY}`);
    const log = await openFrames(url);
    await log.until((f) => cues(f).length === expectedCues(2).length);
    expect(log.frames[0]).toEqual({ type: 'hello', serviceId, lang: 'en', playlistUrl: origin.renditionUrl('en') });
    // Segments 2..6 appear; the window (3 segments) slides past the first ones.
    for (let n = 3; n <= 7; n++) {
      origin.publish(n);
      await log.until((f) => cues(f).length === expectedCues(n).length);
    }
    origin.end();
    expect(await log.closed).toEqual({ code: CAPTIONS_CLOSE_ENDED, reason: 'playlist ended' });
    expect(cues(log.frames)).toEqual(expectedCues(7));
    const seqs = log.frames.flatMap((f) => (f.type === 'cue' ? [f.seq] : []));
    expect(seqs).toEqual(seqs.map((_, i) => i + 1));
    // Each cue carries the program date-time of the segment it first appeared in (cue k starts in segment ⌊1.5k/2⌋).
    const cueFrames = log.frames.flatMap((f) => (f.type === 'cue' ? [f] : []));
    expect(cueFrames.map((f) => f.programDateTime)).toEqual(cueFrames.map((_, k) => origin.programStart + Math.floor((k * 1.5) / 2) * 2000));
    expect(cueFrames.every((f) => f.availableAt !== undefined && f.availableAt >= origin.programStart)).toBe(true);
  });
});

describe('captions socket following a media playlist', () => {
  it('takes a media playlist URL as is (no master) and authenticates by header', async () => {
    const o = await startOrigin();
    try {
      o.publish(2);
      o.end();
      const log = await openFrames(socketUrl(serviceId, `lang=de&playlist_url=${encodeURIComponent(o.renditionUrl('de'))}`), { 'x-api-key': TEST_API_KEY });
      expect(await log.closed).toEqual({ code: CAPTIONS_CLOSE_ENDED, reason: 'playlist ended' });
      expect(log.frames[0]).toEqual({ type: 'hello', serviceId, lang: 'de', playlistUrl: o.renditionUrl('de') });
      expect(cues(log.frames)).toEqual(expectedCues(2, 'de'));
    } finally {
      await o.close();
    }
  });
});

describe('captions socket resilience', () => {
  it('reports playlist errors as error frames and keeps following; heartbeats while idle', async () => {
    const o = await startOrigin();
    try {
      o.publish(1);
      o.failPlaylist(2);
      const log = await openFrames(socketUrl(serviceId, `lang=de&playlist_url=${encodeURIComponent(o.masterUrl)}&x-api-key=${TEST_API_KEY}`));
      await log.until((f) => cues(f).length === expectedCues(1).length);
      const errors = (): string[] => log.frames.flatMap((f) => (f.type === 'error' ? [f.message] : []));
      // Two failing reloads in a row are reported once; a failure after a recovery is reported again.
      expect(errors()).toEqual([expect.stringContaining('HTTP 500')]);
      expect(cues(log.frames)).toEqual(expectedCues(1, 'de'));
      o.failPlaylist(1);
      await log.until(() => errors().length === 2);
      o.publish(2);
      await log.until((f) => cues(f).length === expectedCues(2).length);
      expect(cues(log.frames)).toEqual(expectedCues(2, 'de'));
      await log.until((f) => f.some((x) => x.type === 'heartbeat'));
      log.ws.close();
    } finally {
      await o.close();
    }
  });

  it('an unknown language or an unreachable playlist gives error frames, not a dropped socket', async () => {
    const log = await openFrames(socketUrl(serviceId, `lang=fr&playlist_url=${encodeURIComponent(origin.masterUrl)}&x-api-key=${TEST_API_KEY}`));
    await log.until((f) => f.some((x) => x.type === 'error') && f.some((x) => x.type === 'heartbeat'));
    expect(log.frames[0]).toMatchObject({ type: 'hello', playlistUrl: origin.masterUrl });
    expect(log.frames.filter((f) => f.type === 'error')).toHaveLength(1);
    expect(log.frames.find((f) => f.type === 'error')).toMatchObject({ message: expect.stringContaining('no SUBTITLES rendition for language fr') });
    expect(log.ws.readyState).toBe(log.ws.OPEN);
    log.ws.close();
  });

  it('closes with 4004 once the service is deleted; a follower then ends with NotFoundError', async () => {
    const { id } = await live.createService(hlsConfig(origin.masterUrl, 'to-delete'));
    const log = await openFrames(socketUrl(id, `lang=en-US&x-api-key=${TEST_API_KEY}`));
    const follower = new CaptionsFollower({ baseUrl: server.url, apiKey: TEST_API_KEY, serviceId: id, lang: 'en-US' });
    // Settles with the follower's error (caught at once: it may come before the test awaits it).
    const followed = (async () => {
      for await (const _ of follower) void _;
    })().catch((e: unknown) => e);
    // Not started: its caption output does not exist yet, which is an error frame, and the socket stays open.
    await log.until((f) => f.some((x) => x.type === 'error' && x.message.includes('HTTP 404')) && f.some((x) => x.type === 'heartbeat'));
    await live.deleteService(id);
    expect(await log.closed).toEqual({ code: CAPTIONS_CLOSE_GONE, reason: 'service deleted' });
    expect(await followed).toBeInstanceOf(NotFoundError);
  });

  it('refuses handshakes: 400 without lang, 401 bad key, 403 no live feature, 404 unknown service', async () => {
    expect(await handshakeStatus(socketUrl(serviceId, `x-api-key=${TEST_API_KEY}`))).toBe(400);
    expect(await handshakeStatus(socketUrl(serviceId, 'lang=en'))).toBe(401);
    expect(await handshakeStatus(socketUrl(serviceId, 'lang=en&x-api-key=dd-ffffffffffffffffffffffffffffffff'))).toBe(401);
    expect(await handshakeStatus(socketUrl(serviceId, 'lang=en'), { 'x-api-key': NO_LIVE_KEY })).toBe(403);
    expect(await handshakeStatus(socketUrl(987654, 'lang=en'), { 'x-api-key': TEST_API_KEY })).toBe(404);
    expect(await handshakeStatus(socketUrl(serviceId, `lang=en&playlist_url=ftp://x&x-api-key=${TEST_API_KEY}`))).toBe(400);
  });
});

describe('built-in pipeline', () => {
  it('a started HlsPullSource service republishes the source cues per translation language', async () => {
    const o = await startOrigin();
    try {
      o.publish(3);
      const config = hlsConfig(o.masterUrl, 'pipeline');
      config.translations.push({ language: 'es-ES', ttsEngine: 'voxpipe', voice: 'd4cafe03-0000-4000-8000-000000000004' });
      const { id } = await live.createService(config);
      await live.start(id);
      const log = await openFrames(socketUrl(id, `lang=es-ES&x-api-key=${TEST_API_KEY}`));
      await log.until((f) => cues(f).length === expectedCues(3).length);
      expect(log.frames[0]).toEqual({ type: 'hello', serviceId: id, lang: 'es-ES', playlistUrl: `${server.url}/live/services/${id}/captions/es-ES/playlist.m3u8` });
      expect(cues(log.frames)).toEqual(expectedCues(3));
      const status = await live.status(id);
      expect(status).toMatchObject({ state: 'running', inputConnected: true });
      const playlist = parsePlaylist(await (await fetch(status.captions['en-US'] as string)).text(), status.captions['en-US'] as string);
      expect(playlist.kind === 'media' && playlist.segments.length).toBeGreaterThan(0);
      // Published segments carry the source's program date-time.
      expect(playlist.kind === 'media' && playlist.segments.every((seg) => (seg.programDateTime ?? 0) >= o.programStart)).toBe(true);
      o.publish(4);
      o.end();
      expect((await log.closed).code).toBe(CAPTIONS_CLOSE_ENDED);
      expect(cues(log.frames)).toEqual(expectedCues(4));
      log.ws.close();
      await live.deleteService(id);
    } finally {
      await o.close();
    }
  });

  it('follows its own output at the local address while hello shows the public URL from Host', async () => {
    const o = await startOrigin();
    try {
      o.publish(2);
      const { id } = await live.createService(hlsConfig(o.masterUrl, 'behind-proxy'));
      await live.start(id);
      // A Host the server cannot reach itself (a proxy's name, a mapped port).
      const log = await openFrames(socketUrl(id, `lang=en-US&x-api-key=${TEST_API_KEY}`), { host: 'captions.example:9' });
      await log.until((f) => cues(f).length === expectedCues(2).length);
      expect(log.frames[0]).toEqual({ type: 'hello', serviceId: id, lang: 'en-US', playlistUrl: `http://captions.example:9/live/services/${id}/captions/en-US/playlist.m3u8` });
      await live.stop(id);
      await log.until((f) => f.some((x) => x.type === 'error'));
      expect(log.frames.find((x) => x.type === 'error')).toMatchObject({ message: expect.stringContaining('http://captions.example:9/live/services/') });
      log.ws.close();
      await live.deleteService(id);
    } finally {
      await o.close();
    }
  });

  it('PUT on a running service restarts its pipeline with the new config; stop and DELETE end the outputs', async () => {
    const o = await startOrigin();
    try {
      o.publish(2);
      const { id } = await live.createService(hlsConfig(o.masterUrl, 'put-running'));
      await live.start(id);
      const playlistOf = (lang: string): Promise<Response> => fetch(`${server.url}/live/services/${id}/captions/${lang}/playlist.m3u8`);
      const updated = await live.updateService(id, (config) => ({
        ...config,
        translations: [{ language: 'he-IL', ttsEngine: 'voxpipe', voice: 'c3d9e4f2-0000-4000-8000-000000000003' }],
      }));
      expect(updated.state).toBe('running');
      expect(Object.keys((await live.status(id)).captions)).toEqual(['he-IL']);
      const log = await openFrames(socketUrl(id, `lang=he-IL&x-api-key=${TEST_API_KEY}`));
      await log.until((f) => cues(f).length === expectedCues(2).length);
      expect((await playlistOf('en-US')).status).toBe(404);
      await live.stop(id);
      expect((await playlistOf('he-IL')).status).toBe(404);
      await log.until((f) => f.some((x) => x.type === 'error' && x.message.includes('HTTP 404')));
      expect(log.ws.readyState).toBe(log.ws.OPEN);
      log.ws.close();
      await live.start(id);
      await live.deleteService(id);
      expect((await playlistOf('he-IL')).status).toBe(404);
      expect(await live.status(id).catch((e: unknown) => (e as { status?: number }).status)).toBe(404);
    } finally {
      await o.close();
    }
  });

  it('a running service resumes after a restart and its captions flow again', async () => {
    const o = await startOrigin();
    const dataDir = mkdtempSync(join(tmpdir(), 'voxpipe-live-'));
    const env = { VOXPIPE_LIVE_RELOAD_MS: '40', VOXPIPE_CAPTIONS_HEARTBEAT_MS: '100' };
    try {
      o.publish(2);
      const first = await withEnv(env, () => startTestServer({ dataDir }));
      const c1 = new LiveClient({ baseUrl: first.url, apiKey: TEST_API_KEY });
      const { id } = await c1.createService(hlsConfig(o.masterUrl));
      await c1.start(id);
      await first.close();
      const second = await withEnv(env, () => startTestServer({ dataDir }));
      try {
        const log = await openFrames(`${wsBase(second)}/live/services/${id}/captions/ws?lang=en-US&x-api-key=${TEST_API_KEY}`);
        await log.until((f) => cues(f).length === expectedCues(2).length);
        expect(cues(log.frames)).toEqual(expectedCues(2));
        log.ws.close();
      } finally {
        await second.close();
      }
    } finally {
      await o.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
