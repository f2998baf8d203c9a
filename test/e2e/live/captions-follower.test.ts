import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CaptionsFollower, writeCaptions, type FollowedCue } from '../../../src/client/captions-follower.js';
import { LiveClient } from '../../../src/client/live.js';
import { AbortError, NotFoundError } from '../../../src/errors.js';
import { parseWebVtt } from '../../../src/hls/webvtt.js';
import type { RunningServer } from '../../../src/server/app.js';
import { startTestServer, TEST_API_KEY } from '../../helpers/server.js';
import { hlsConfig, LIVE_TEST_CONFIG } from './fixtures.js';
import { expectedCues, startOrigin, type LiveOrigin } from './hls-origin.js';

let server: RunningServer;
let origin: LiveOrigin;
let serviceId: number;

beforeAll(async () => {
  origin = await startOrigin();
  Object.assign(process.env, { VOXPIPE_LIVE_RELOAD_MS: '40', VOXPIPE_CAPTIONS_HEARTBEAT_MS: '100' });
  server = await startTestServer({ config: LIVE_TEST_CONFIG });
  delete process.env.VOXPIPE_LIVE_RELOAD_MS;
  delete process.env.VOXPIPE_CAPTIONS_HEARTBEAT_MS;
  serviceId = (await new LiveClient({ baseUrl: server.url, apiKey: TEST_API_KEY }).createService(hlsConfig(origin.masterUrl))).id;
});
afterAll(async () => {
  await server.close();
  await origin.close();
});

const plain = (cues: FollowedCue[]): Array<{ start: number; end: number; text: string }> => cues.map(({ start, end, text }) => ({ start, end, text }));

describe('CaptionsFollower', () => {
  it('delivers every cue once, in order, across server-side drops, and ends with the playlist', async () => {
    origin.publish(2);
    const frames: string[] = [];
    const follower = new CaptionsFollower({
      baseUrl: server.url,
      apiKey: TEST_API_KEY,
      auth: 'query',
      serviceId,
      lang: 'en',
      playlistUrl: origin.masterUrl,
      onFrame: (f) => frames.push(f.type),
    });
    const got: FollowedCue[] = [];
    let published = 2;
    for await (const cue of follower) {
      got.push(cue);
      if (got.length === expectedCues(published).length) {
        // Drop every captions socket: the follower reconnects and the server replays its window.
        for (const ws of server.context.ws.clients) ws.terminate();
        published++;
        origin.publish(published);
        if (published === 6) origin.end();
      }
    }
    expect(plain(got)).toEqual(expectedCues(6));
    expect(got.map((c) => c.seq)).toEqual(got.map((_, i) => i + 1));
    const stats = follower.stats();
    expect(stats.reconnects).toBeGreaterThanOrEqual(4);
    expect(stats.duplicatesDropped).toBeGreaterThan(0);
    expect(stats.cues).toBe(got.length);
    // Delay against segment availability (the server's cue frames carry availableAt) and against program date-time.
    expect(got.every((c) => c.delaySource === 'segment-availability' && c.delayMs >= 0)).toBe(true);
    expect(got.every((c) => c.programDelayMs !== undefined && c.receivedAt - (c.programDelayMs ?? 0) >= origin.programStart)).toBe(true);
    expect(frames.filter((t) => t === 'hello').length).toBe(stats.reconnects + 1);
  });

  it('does not retry a refused handshake', async () => {
    const follower = new CaptionsFollower({ baseUrl: server.url, apiKey: TEST_API_KEY, serviceId: 424242, lang: 'en' });
    const attempts: number[] = [];
    const iterate = async (): Promise<void> => {
      for await (const _ of new CaptionsFollower({ baseUrl: server.url, apiKey: TEST_API_KEY, serviceId: 424242, lang: 'en', onReconnect: (n) => attempts.push(n) })) break;
    };
    await expect(iterate()).rejects.toBeInstanceOf(NotFoundError);
    expect(attempts).toEqual([]);
    expect(() => {
      follower[Symbol.asyncIterator]();
      follower[Symbol.asyncIterator]();
    }).toThrow(/once/);
  });

  it('stops with AbortError when its signal aborts', async () => {
    const controller = new AbortController();
    const follower = new CaptionsFollower({ baseUrl: server.url, apiKey: TEST_API_KEY, serviceId, lang: 'fr', playlistUrl: origin.masterUrl, signal: controller.signal, onFrame: (f) => f.type === 'error' && controller.abort() });
    const iterate = async (): Promise<void> => {
      for await (const _ of follower) void _;
    };
    await expect(iterate()).rejects.toBeInstanceOf(AbortError);
  });
});

describe('writeCaptions', () => {
  const cues = [
    { start: 10, end: 11.2, text: 'line 0' },
    { start: 3671.5, end: 3672.25, text: 'two\nlines' },
  ];

  it('writes SRT blocks numbered from 1', async () => {
    let out = '';
    expect(await writeCaptions(cues, 'srt', (s) => void (out += s))).toBe(2);
    expect(out).toBe('1\n00:00:10,000 --> 00:00:11,200\nline 0\n\n2\n01:01:11,500 --> 01:01:12,250\ntwo\nlines\n\n');
  });

  it('writes WebVTT that parses back to the same cues', async () => {
    let out = '';
    await writeCaptions(cues, 'vtt', (s) => void (out += s));
    expect(parseWebVtt(out).cues).toEqual(cues);
  });
});
