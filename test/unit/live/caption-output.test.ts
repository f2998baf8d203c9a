import { describe, expect, it } from 'vitest';
import { parsePlaylist } from '../../../src/hls/playlist.js';
import { parseWebVtt } from '../../../src/hls/webvtt.js';
import { CAPTION_WINDOW_SEGMENTS, CaptionOutput } from '../../../src/server/live/caption-output.js';

const T0 = Date.UTC(2026, 10, 22, 19, 0, 0);
const BASE = 'http://h/live/services/1/captions/en/playlist.m3u8';

describe('CaptionOutput', () => {
  it('publishes one segment per non-empty batch and slides its window', () => {
    const out = new CaptionOutput();
    out.append([], 2, 0);
    expect(parsePlaylist(out.playlist(), BASE)).toMatchObject({ mediaSequence: 0, segments: [], endList: false });
    for (let i = 0; i < CAPTION_WINDOW_SEGMENTS + 2; i++) out.append([{ start: 10 + i, end: 10.5 + i, text: `c${i}` }], 2, T0 + i * 2000);
    const playlist = parsePlaylist(out.playlist(), BASE);
    expect(playlist.kind === 'media' && playlist.segments.map((s) => s.seq)).toEqual([2, 3, 4, 5, 6, 7]);
    expect(playlist).toMatchObject({ mediaSequence: 2, targetDuration: 2 });
    expect(playlist.kind === 'media' && playlist.segments.map((s) => s.programDateTime)).toEqual([2, 3, 4, 5, 6, 7].map((i) => T0 + i * 2000));
    expect(out.playlist()).toContain('#EXT-X-PROGRAM-DATE-TIME:2026-11-22T19:00:04.000Z');
    expect(out.segment(1)).toBeUndefined();
    const doc = parseWebVtt(out.segment(7) as string);
    expect(doc.timestampMap).toEqual({ mpegts: 0, local: 0 });
    expect(doc.cues).toEqual([{ start: 17, end: 17.5, text: 'c7' }]);
  });

  it('ends with ENDLIST and accepts nothing after', () => {
    const out = new CaptionOutput();
    out.append([{ start: 1, end: 2, text: 'a' }], 2, T0);
    out.end();
    out.append([{ start: 3, end: 4, text: 'b' }], 2, T0);
    const playlist = parsePlaylist(out.playlist(), BASE);
    expect(playlist).toMatchObject({ endList: true });
    expect(playlist.kind === 'media' && playlist.segments).toHaveLength(1);
  });
});
