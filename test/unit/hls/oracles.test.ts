/** Cross-checks of the WebVTT reader and the SRT/WebVTT writers against independent implementations. */
import { validator as srtValidator } from 'srt-validator';
import { describe, expect, it } from 'vitest';
import { WebVTTParser } from 'webvtt-parser';
import { formatSrt, formatWebVtt, parseWebVtt } from '../../../src/hls/webvtt.js';

const DOCS: Record<string, string> = {
  'HLS segment with a timestamp map, ids and settings':
    'WEBVTT\nX-TIMESTAMP-MAP=MPEGTS:900000,LOCAL:00:00:00.000\n\n3\n00:00:04.500 --> 00:00:05.700 align:center line:90%\nline 3\n\n4\n00:00:06.000 --> 00:00:07.200\nline 4\n',
  'CRLF, a BOM, NOTE and STYLE blocks, multi-line text, hours':
    '\uFEFFWEBVTT - title\r\n\r\nSTYLE\r\n::cue { color: yellow }\r\n\r\nNOTE a comment\r\nspanning lines\r\n\r\n01:02:03.004 --> 01:02:05.000\r\n<v Ana>two</v>\r\nlines\r\n',
  'cues without ids and an empty segment tail': 'WEBVTT\n\n00:01.000 --> 00:02.000\na\n\n00:02.000 --> 00:03.500\nb\n\n',
};

const w3c = (text: string): { cues: Array<{ start: number; end: number; text: string }>; errors: string[] } => {
  const parsed = new WebVTTParser().parse(text, 'subtitles/captions/descriptions');
  return { cues: parsed.cues.map((c) => ({ start: c.startTime, end: c.endTime, text: c.text })), errors: parsed.errors.map((e) => `${e.line}: ${e.message}`) };
};

describe('parseWebVtt agrees with the W3C WebVTT parser', () => {
  it.each(Object.entries(DOCS))('%s', (_name, text) => {
    const oracle = w3c(text);
    expect(parseWebVtt(text).cues).toEqual(oracle.cues);
  });
});

describe('writers produce documents that independent validators accept', () => {
  const cues = [
    { start: 10, end: 11.2, text: 'line 0' },
    { start: 11.5, end: 12.7, text: 'two\nlines' },
    { start: 3671.5, end: 3672.25, text: '<i>late</i>' },
  ];

  it('WebVTT (with and without the media-time map) parses cleanly and to the same cues', () => {
    expect(w3c(formatWebVtt(cues))).toEqual({ cues, errors: [] });
    // RFC 8216 §3.5 puts X-TIMESTAMP-MAP in the header, right under WEBVTT, which the W3C validator reports.
    expect(w3c(formatWebVtt(cues, { timestampMap: true }))).toEqual({ cues, errors: ['2: No blank line after the signature.'] });
  });

  it('SRT passes srt-validator', () => {
    expect(srtValidator(formatSrt(cues))).toEqual([]);
  });
});
