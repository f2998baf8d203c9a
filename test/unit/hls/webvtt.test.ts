import { describe, expect, it } from 'vitest';
import { formatSrt, formatTimestamp, formatWebVtt, parseTimestamp, parseWebVtt, toMediaTime, WebVttParseError } from '../../../src/hls/webvtt.js';

describe('timestamps', () => {
  it('parses with and without hours and formats back', () => {
    expect(parseTimestamp('01:02.500')).toBe(62.5);
    expect(parseTimestamp('10:00:01.001')).toBeCloseTo(36001.001, 6);
    expect(parseTimestamp('1:2.5')).toBeUndefined();
    expect(formatTimestamp(36001.001)).toBe('10:00:01.001');
    expect(formatTimestamp(0.0004, ',')).toBe('00:00:00,000');
  });
});

describe('parseWebVtt', () => {
  it('reads cues with ids and settings, skips NOTE and STYLE, keeps multi-line text', () => {
    const text =
      'WEBVTT - live\r\nX-TIMESTAMP-MAP=LOCAL:00:00:01.000,MPEGTS:180000\r\n\r\nNOTE a comment\r\n--> not a cue\r\n\r\nSTYLE\r\n::cue { color: red }\r\n\r\n' +
      'cue-1\r\n00:01.000 --> 00:02.500 align:start line:90%\r\n<v Bob>Hello</v>\r\nthere\r\n\r\n00:03.000 --> 00:04.000\r\nsecond\r\n';
    const doc = parseWebVtt(text);
    expect(doc.timestampMap).toEqual({ mpegts: 180000, local: 1 });
    expect(doc.cues).toEqual([
      { start: 1, end: 2.5, text: '<v Bob>Hello</v>\nthere' },
      { start: 3, end: 4, text: 'second' },
    ]);
  });

  it('maps cue times to media time through X-TIMESTAMP-MAP', () => {
    const map = { mpegts: 900000, local: 2 };
    expect(toMediaTime(2, map)).toBe(10);
    expect(toMediaTime(3.5, map)).toBe(11.5);
    expect(toMediaTime(3.5, undefined)).toBe(3.5);
  });

  it('rejects a missing header, a bad map and bad timings', () => {
    expect(() => parseWebVtt('00:01.000 --> 00:02.000\nx\n')).toThrow(WebVttParseError);
    expect(() => parseWebVtt('WEBVTTX\n')).toThrow(WebVttParseError);
    expect(() => parseWebVtt('WEBVTT\nX-TIMESTAMP-MAP=MPEGTS:abc,LOCAL:00:00:00.000\n')).toThrow(/X-TIMESTAMP-MAP/);
    expect(() => parseWebVtt('WEBVTT\n\n00:01.000 --> soon\nx\n')).toThrow(/timing/);
  });

  it('an empty segment has no cues', () => {
    expect(parseWebVtt('WEBVTT\n').cues).toEqual([]);
  });
});

describe('writers', () => {
  const cues = [{ start: 10, end: 11.25, text: 'a' }, { start: 12, end: 13, text: 'b\nc' }];

  it('WebVTT with a media-time map parses back to the same cues in media time', () => {
    const doc = parseWebVtt(formatWebVtt(cues, { timestampMap: true }));
    expect(doc.timestampMap).toEqual({ mpegts: 0, local: 0 });
    expect(doc.cues.map((c) => ({ ...c, start: toMediaTime(c.start, doc.timestampMap), end: toMediaTime(c.end, doc.timestampMap) }))).toEqual(cues);
  });

  it('SRT uses commas and 1-based numbering', () => {
    expect(formatSrt(cues)).toBe('1\n00:00:10,000 --> 00:00:11,250\na\n\n2\n00:00:12,000 --> 00:00:13,000\nb\nc\n\n');
  });
});

describe('MpegTsClock', () => {
  it('keeps media time growing across the 33-bit wrap and leaves ordinary values alone', async () => {
    const { MpegTsClock, MPEGTS_WRAP } = await import('../../../src/hls/webvtt.js');
    const clock = new MpegTsClock();
    expect(clock.unwrap(900_000)).toBe(900_000);
    expect(clock.unwrap(720_000)).toBe(720_000);
    expect(clock.unwrap(MPEGTS_WRAP - 90_000)).toBe(MPEGTS_WRAP - 90_000 - MPEGTS_WRAP);
    const fresh = new MpegTsClock();
    fresh.unwrap(MPEGTS_WRAP - 90_000);
    expect(fresh.unwrap(90_000)).toBe(MPEGTS_WRAP + 90_000);
    expect(fresh.unwrap(180_000)).toBe(MPEGTS_WRAP + 180_000);
  });
});
