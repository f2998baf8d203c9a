import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocketServer, type WebSocket } from 'ws';
import { CaptionsFollower, type FollowedCue } from '../../../src/client/captions-follower.js';
import { ConnectionError, ProtocolError } from '../../../src/errors.js';
import { CAPTIONS_CLOSE_ENDED, type CaptionsFrame } from '../../../src/protocol/captions.js';

/** A scripted captions server: `onConnection(ws, n)` runs for the n-th connection (from 1). */
async function fakeServer(onConnection: (ws: WebSocket, n: number) => void): Promise<{ baseUrl: string; connections: () => number; close: () => Promise<void> }> {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise<void>((resolve) => wss.once('listening', resolve));
  let n = 0;
  wss.on('connection', (ws) => onConnection(ws, ++n));
  return {
    baseUrl: `http://127.0.0.1:${(wss.address() as AddressInfo).port}`,
    connections: () => n,
    close: () =>
      new Promise<void>((resolve) => {
        for (const c of wss.clients) c.terminate();
        wss.close(() => resolve());
      }),
  };
}

const send = (ws: WebSocket, frame: CaptionsFrame): void => ws.send(JSON.stringify(frame));
const hello = (ws: WebSocket): void => send(ws, { type: 'hello', serviceId: 1, lang: 'en', playlistUrl: 'http://o/en.m3u8' });
const cue = (seq: number, start: number, text: string, extra: Partial<CaptionsFrame> = {}): CaptionsFrame => ({ type: 'cue', seq, start, end: start + 1, text, ...extra }) as CaptionsFrame;

async function collect(follower: CaptionsFollower): Promise<FollowedCue[]> {
  const got: FollowedCue[] = [];
  for await (const c of follower) got.push(c);
  return got;
}

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

describe('CaptionsFollower against a scripted server', () => {
  it('reconnects when the socket goes silent, and skips the replayed window', async () => {
    const server = await fakeServer((ws, n) => {
      hello(ws);
      send(ws, cue(1, 10, 'a'));
      send(ws, cue(2, 11, 'b'));
      if (n === 1) return; // then silence: no heartbeats, no close
      send(ws, cue(3, 12, 'c'));
      ws.close(CAPTIONS_CLOSE_ENDED, 'playlist ended');
    });
    close = server.close;
    const reasons: unknown[] = [];
    const follower = new CaptionsFollower({ baseUrl: server.baseUrl, serviceId: 1, lang: 'en', idleTimeoutMs: 100, onReconnect: (_n, reason) => reasons.push(reason) });
    const got = await collect(follower);
    expect(got.map((c) => [c.seq, c.text])).toEqual([
      [1, 'a'],
      [2, 'b'],
      [3, 'c'],
    ]);
    expect(server.connections()).toBe(2);
    expect(reasons).toEqual([expect.any(ConnectionError)]);
    expect(follower.stats()).toMatchObject({ cues: 3, duplicatesDropped: 2, reconnects: 1 });
  });

  it('measures delay relative to the fastest cue without availableAt, and against availability and program time with them', async () => {
    const now = Date.now();
    const server = await fakeServer((ws) => {
      hello(ws);
      send(ws, cue(1, 10, 'plain'));
      send(ws, cue(2, 11, 'timed', { availableAt: now - 5000, programDateTime: now - 9000 }));
      ws.close(CAPTIONS_CLOSE_ENDED, 'playlist ended');
    });
    close = server.close;
    const [plain, timed] = await collect(new CaptionsFollower({ baseUrl: server.baseUrl, serviceId: 1, lang: 'en' }));
    expect(plain).toMatchObject({ delaySource: 'relative', delayMs: 0, programDelayMs: undefined });
    expect(timed?.delaySource).toBe('segment-availability');
    expect(timed?.delayMs).toBeGreaterThanOrEqual(5000);
    expect(timed?.programDelayMs).toBeGreaterThanOrEqual(9000);
  });

  it('fails with a ProtocolError on a malformed frame', async () => {
    const server = await fakeServer((ws) => {
      hello(ws);
      ws.send('{"type":"cue","seq":"one"}');
    });
    close = server.close;
    await expect(collect(new CaptionsFollower({ baseUrl: server.baseUrl, serviceId: 1, lang: 'en' }))).rejects.toBeInstanceOf(ProtocolError);
  });

  it('gives up after maxAttempts failed connects in a row', async () => {
    const server = await fakeServer(() => undefined);
    const baseUrl = server.baseUrl;
    await server.close(); // nothing listens on the port any more
    const attempts: number[] = [];
    const follower = new CaptionsFollower({ baseUrl, serviceId: 1, lang: 'en', maxAttempts: 2, onReconnect: (n) => attempts.push(n) });
    await expect(collect(follower)).rejects.toBeInstanceOf(ConnectionError);
    expect(attempts).toEqual([1, 2]);
  });
});
