import { describe, expect, it } from 'vitest';
import { followCaptions, MAX_BODY_BYTES, type FollowEvent } from '../../../src/server/live/hls-follower.js';

type File = string | number | 'hang' | (() => string | number);

/** A scripted origin: `files` maps URL → body (or a status number, 'hang' to never answer, or a function giving either). */
function fakeFetch(files: Map<string, File>): typeof fetch {
  return (async (input: string | URL | Request, init?: RequestInit) => {
    const url = String(input);
    const entry = files.get(url);
    const file = typeof entry === 'function' ? entry() : entry;
    if (file === 'hang') {
      return new Promise<Response>((_resolve, reject) => init?.signal?.addEventListener('abort', () => reject(new Error('aborted'))));
    }
    if (file === undefined) return new Response('nope', { status: 404 });
    if (typeof file === 'number') return new Response('', { status: file });
    return new Response(file);
  }) as typeof fetch;
}

const PL = 'http://o/subs.m3u8';
const playlist = (seq: number, segs: number[], end = false): string =>
  `#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXT-X-MEDIA-SEQUENCE:${seq}\n${segs.map((n) => `#EXTINF:2,\ns${n}.vtt\n`).join('')}${end ? '#EXT-X-ENDLIST\n' : ''}`;
const vtt = (...cues: Array<[number, string]>): string => `WEBVTT\n${cues.map(([s, t]) => `\n00:00:${String(s).padStart(2, '0')}.000 --> 00:00:${String(s + 1).padStart(2, '0')}.000\n${t}\n`).join('')}`;

/** Runs the follower, calling `step(reloadCount)` after each processed reload, until it returns true or the stream ends. */
async function run(files: Map<string, File>, step: (reloads: number, events: FollowEvent[]) => boolean, timeoutMs = 50): Promise<FollowEvent[]> {
  const controller = new AbortController();
  const events: FollowEvent[] = [];
  let reloads = 0;
  for await (const event of followCaptions({ url: PL, lang: 'en', signal: controller.signal, reloadMs: 1, requestTimeoutMs: timeoutMs, fetch: fakeFetch(files) })) {
    events.push(event);
    if (event.type === 'reloaded' || event.type === 'error') {
      if (event.type === 'reloaded') reloads++;
      if (step(reloads, events)) controller.abort();
    }
  }
  return events;
}
const texts = (events: FollowEvent[]): string[] => events.flatMap((e) => (e.type === 'cue' ? [e.cue.text] : []));
const errors = (events: FollowEvent[]): string[] => events.flatMap((e) => (e.type === 'error' ? [e.message] : []));

describe('followCaptions', () => {
  it('follows a media playlist directly and ends at ENDLIST', async () => {
    const files = new Map<string, File>([
      [PL, playlist(0, [0, 1], true)],
      ['http://o/s0.vtt', vtt([1, 'a'], [2, 'b'])],
      ['http://o/s1.vtt', vtt([2, 'b'], [3, 'c'])],
    ]);
    const events = await run(files, () => false);
    expect(events[0]).toEqual({ type: 'resolved', playlistUrl: PL });
    expect(texts(events)).toEqual(['a', 'b', 'c']);
    expect(events.at(-1)).toEqual({ type: 'ended' });
  });

  it('retries a segment that timed out and loses no cue', async () => {
    const files = new Map<string, File>([
      [PL, playlist(0, [0, 1])],
      ['http://o/s0.vtt', vtt([1, 'a'])],
      ['http://o/s1.vtt', 'hang'],
    ]);
    const events = await run(files, (_reloads, seen) => {
      files.set('http://o/s1.vtt', vtt([3, 'c']));
      return texts(seen).length === 2;
    });
    expect(errors(events)).toEqual([expect.stringContaining('timed out fetching http://o/s1.vtt')]);
    expect(texts(events)).toEqual(['a', 'c']);
  });

  it('skips a malformed segment with an error and continues', async () => {
    const files = new Map<string, File>([
      [PL, playlist(5, [5, 6, 7], true)],
      ['http://o/s5.vtt', vtt([1, 'a'])],
      ['http://o/s6.vtt', 'garbage'],
      ['http://o/s7.vtt', vtt([5, 'c'])],
    ]);
    const events = await run(files, () => false);
    expect(texts(events)).toEqual(['a', 'c']);
    expect(errors(events)).toEqual([expect.stringMatching(/^segment 6: not a WebVTT document/)]);
  });

  it('yields a cue split across a segment boundary once', async () => {
    const files = new Map<string, File>([
      [PL, playlist(0, [0, 1], true)],
      ['http://o/s0.vtt', 'WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nacross\n'],
      ['http://o/s1.vtt', 'WEBVTT\n\n00:00:02.000 --> 00:00:03.000\nacross\n\n00:00:02.500 --> 00:00:03.000\nnext\n'],
    ]);
    const events = await run(files, () => false);
    expect(events.flatMap((e) => (e.type === 'cue' ? [e.cue] : []))).toEqual([
      { start: 1, end: 2, text: 'across' },
      { start: 2.5, end: 3, text: 'next' },
    ]);
  });

  it('stops reading an oversized segment, reports it once and moves on', async () => {
    const files = new Map<string, File>([
      [PL, playlist(0, [0, 1, 2], true)],
      ['http://o/s0.vtt', vtt([1, 'a'])],
      ['http://o/s1.vtt', vtt([3, 'x'.repeat(MAX_BODY_BYTES)])],
      ['http://o/s2.vtt', vtt([5, 'c'])],
    ]);
    const events = await run(files, () => false);
    expect(texts(events)).toEqual(['a', 'c']);
    expect(errors(events)).toEqual([expect.stringMatching(/^segment 1: response larger than \d+ bytes/)]);
  });

  it('jumps to the window start when it fell behind, and restarts when the media sequence resets', async () => {
    const files = new Map<string, File>([
      [PL, playlist(0, [0])],
      ['http://o/s0.vtt', vtt([1, 'a'])],
      ['http://o/s9.vtt', vtt([9, 'late'])],
      ['http://o/s1.vtt', vtt([1, 'after reset'])],
    ]);
    const events = await run(files, (reloads) => {
      if (reloads === 1) files.set(PL, playlist(9, [9])); // segments 1..8 slid out of the window unseen
      if (reloads === 2) files.set(PL, playlist(0, [0, 1])); // stream restarted: sequence back to 0
      return reloads === 3;
    });
    expect(texts(events)).toEqual(['a', 'late', 'after reset']);
  });

  it('reports a repeating problem once until a reload succeeds', async () => {
    let calls = 0;
    const files = new Map<string, File>([[PL, () => (++calls <= 5 ? 503 : playlist(0, []))]]);
    const events = await run(files, (reloads) => reloads === 1);
    expect(calls).toBe(6);
    expect(errors(events)).toEqual(['HTTP 503 fetching http://o/subs.m3u8']);
    expect(events.filter((e) => e.type === 'resolved')).toHaveLength(1);
  });
});
