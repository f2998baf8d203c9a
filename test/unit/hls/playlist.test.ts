import { describe, expect, it } from 'vitest';
import { formatMediaPlaylist, parseAttributes, parsePlaylist, pickSubtitleRendition, PlaylistParseError, type MasterPlaylist } from '../../../src/hls/playlist.js';

const BASE = 'http://127.0.0.1:1/live/master.m3u8';

describe('parseAttributes', () => {
  it('keeps commas inside quoted values and strips the quotes', () => {
    const a = parseAttributes('TYPE=SUBTITLES,NAME="English, CC",LANGUAGE="en",BANDWIDTH=800000');
    expect(Object.fromEntries(a)).toEqual({ TYPE: 'SUBTITLES', NAME: 'English, CC', LANGUAGE: 'en', BANDWIDTH: '800000' });
  });
});

describe('parsePlaylist', () => {
  it('reads subtitle renditions of a master playlist with URIs resolved against the playlist', () => {
    const text =
      '#EXTM3U\n#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="a",LANGUAGE="en",URI="audio.m3u8"\n' +
      '#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="s",NAME="English, CC",LANGUAGE="en-US",DEFAULT=YES,URI="subs/en.m3u8"\n' +
      '#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="s",LANGUAGE="de",URI="/abs/de.m3u8"\n' +
      '#EXT-X-STREAM-INF:BANDWIDTH=1,SUBTITLES="s"\nv.m3u8\n';
    const master = parsePlaylist(text, BASE) as MasterPlaylist;
    expect(master.kind).toBe('master');
    expect(master.subtitles).toEqual([
      { groupId: 's', language: 'en-US', name: 'English, CC', uri: 'http://127.0.0.1:1/live/subs/en.m3u8', isDefault: true },
      { groupId: 's', language: 'de', name: undefined, uri: 'http://127.0.0.1:1/abs/de.m3u8', isDefault: false },
    ]);
  });

  it('numbers media segments from the media sequence and sees ENDLIST', () => {
    const text = '\uFEFF#EXTM3U\r\n#EXT-X-TARGETDURATION:4\r\n#EXT-X-MEDIA-SEQUENCE:41\r\n#EXTINF:4.0,\r\na.vtt\r\n#EXT-X-DISCONTINUITY\r\n#EXTINF:3.5,title\r\nb.vtt\r\n#EXT-X-ENDLIST\r\n';
    expect(parsePlaylist(text, 'http://h/p/x.m3u8')).toEqual({
      kind: 'media',
      targetDuration: 4,
      mediaSequence: 41,
      endList: true,
      segments: [
        { seq: 41, uri: 'http://h/p/a.vtt', duration: 4, programDateTime: undefined },
        { seq: 42, uri: 'http://h/p/b.vtt', duration: 3.5, programDateTime: undefined },
      ],
    });
  });

  it('reads program date-times and carries them forward by segment durations until the next tag', () => {
    const text =
      '#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2,\na.vtt\n#EXT-X-PROGRAM-DATE-TIME:2026-11-22T19:00:00.500+00:00\n#EXTINF:2,\nb.vtt\n' +
      '#EXTINF:1.5,\nc.vtt\n#EXT-X-PROGRAM-DATE-TIME:2026-11-22T19:01:00Z\n#EXTINF:2,\nd.vtt\n';
    const playlist = parsePlaylist(text, BASE);
    const t = Date.UTC(2026, 10, 22, 19, 0, 0, 500);
    expect(playlist.kind === 'media' && playlist.segments.map((s) => s.programDateTime)).toEqual([undefined, t, t + 2000, Date.UTC(2026, 10, 22, 19, 1, 0)]);
    expect(() => parsePlaylist('#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXT-X-PROGRAM-DATE-TIME:yesterday\n#EXTINF:2,\na.vtt\n', BASE)).toThrow(/PROGRAM-DATE-TIME/);
  });

  it('rejects documents that are not usable playlists', () => {
    expect(() => parsePlaylist('WEBVTT\n', BASE)).toThrow(PlaylistParseError);
    expect(() => parsePlaylist('#EXTM3U\n#EXTINF:2,\na.vtt\n', BASE)).toThrow(/TARGETDURATION/);
    expect(() => parsePlaylist('#EXTM3U\n#EXT-X-TARGETDURATION:2\na.vtt\n', BASE)).toThrow(/EXTINF/);
    expect(() => parsePlaylist('#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXT-X-MEDIA-SEQUENCE:-1\n', BASE)).toThrow(/MEDIA-SEQUENCE/);
  });

  it('round-trips the playlists the service writes', () => {
    const pdt = Date.UTC(2026, 10, 22, 19, 0, 0);
    const segments = [
      { uri: '7.vtt', duration: 2 },
      { uri: '8.vtt', duration: 2, programDateTime: pdt },
    ];
    const text = formatMediaPlaylist({ targetDuration: 2, mediaSequence: 7, segments, endList: false });
    const parsed = parsePlaylist(text, 'http://h/c/playlist.m3u8');
    expect(parsed).toMatchObject({ kind: 'media', targetDuration: 2, mediaSequence: 7, endList: false });
    expect(parsed.kind === 'media' && parsed.segments.map((s) => [s.seq, s.uri, s.programDateTime])).toEqual([
      [7, 'http://h/c/7.vtt', undefined],
      [8, 'http://h/c/8.vtt', pdt],
    ]);
  });
});

describe('pickSubtitleRendition', () => {
  const r = (language: string | undefined, isDefault = false) => ({ groupId: 's', language, name: undefined, uri: `http://h/${language}.m3u8`, isDefault });
  const master: MasterPlaylist = { kind: 'master', subtitles: [r('en-GB'), r('en-US', true), r('de'), r(undefined)] };

  it('prefers an exact match, then the primary subtag (default first), case-insensitively', () => {
    expect(pickSubtitleRendition(master, 'EN-gb')?.language).toBe('en-GB');
    expect(pickSubtitleRendition(master, 'en')?.language).toBe('en-US');
    expect(pickSubtitleRendition(master, 'de-AT')?.language).toBe('de');
  });

  it('falls back to the default rendition only when asked', () => {
    expect(pickSubtitleRendition(master, 'fr')).toBeUndefined();
    expect(pickSubtitleRendition(master, 'fr', true)?.language).toBe('en-US');
    expect(pickSubtitleRendition({ kind: 'master', subtitles: [] }, 'fr', true)).toBeUndefined();
  });
});
