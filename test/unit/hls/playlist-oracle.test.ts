/** Cross-check of parsePlaylist and formatMediaPlaylist against hls-parser (an independent RFC 8216 implementation). */
import HLS from 'hls-parser';
import { describe, expect, it } from 'vitest';
import { formatMediaPlaylist, parsePlaylist } from '../../../src/hls/playlist.js';

const BASE = 'http://h/live/master.m3u8';

const MASTER = `#EXTM3U
#EXT-X-VERSION:6
#EXT-X-INDEPENDENT-SEGMENTS
#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",NAME="English",LANGUAGE="en",DEFAULT=YES,URI="audio/en.m3u8"
#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="English, CC",LANGUAGE="en-US",DEFAULT=YES,AUTOSELECT=YES,FORCED=NO,URI="subs/en.m3u8"
#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="Español",LANGUAGE="es",AUTOSELECT=YES,URI="https://cdn.example/subs/es.m3u8"
#EXT-X-STREAM-INF:BANDWIDTH=800000,CODECS="avc1.4d401f,mp4a.40.2",RESOLUTION=640x360,AUDIO="aud",SUBTITLES="subs"
video/360.m3u8
`;

const MEDIA = `#EXTM3U
#EXT-X-VERSION:3
#EXT-X-TARGETDURATION:6
#EXT-X-MEDIA-SEQUENCE:1207
#EXT-X-PROGRAM-DATE-TIME:2026-11-22T19:00:00.000Z
#EXTINF:6.000,
seg1207.vtt
#EXTINF:5.5,title
seg1208.vtt
#EXT-X-DISCONTINUITY
#EXT-X-PROGRAM-DATE-TIME:2026-11-22T19:05:00.250Z
#EXTINF:6,
../other/seg1209.vtt
`;

describe('parsePlaylist agrees with hls-parser', () => {
  it('on the subtitle renditions of a master playlist', () => {
    const oracle = HLS.parse(MASTER);
    if (!oracle.isMasterPlaylist) throw new Error('expected a master playlist');
    const expected = (oracle.variants[0]?.subtitles ?? []).map((r) => ({
      groupId: r.groupId,
      language: r.language,
      name: r.name,
      uri: new URL(r.uri ?? '', BASE).toString(),
      isDefault: r.isDefault ?? false,
    }));
    const ours = parsePlaylist(MASTER, BASE);
    expect(ours.kind === 'master' && ours.subtitles).toEqual(expected);
  });

  it('on a media playlist: sequence numbers, durations, URIs, program date-times, target duration', () => {
    const oracle = HLS.parse(MEDIA);
    if (oracle.isMasterPlaylist) throw new Error('expected a media playlist');
    const ours = parsePlaylist(MEDIA, 'http://h/live/subs/en.m3u8');
    if (ours.kind !== 'media') throw new Error('expected a media playlist');
    expect([ours.targetDuration, ours.mediaSequence, ours.endList]).toEqual([oracle.targetDuration, oracle.mediaSequenceBase, oracle.endlist]);
    expect(ours.segments.map((s) => [s.seq, s.duration, s.uri])).toEqual(
      oracle.segments.map((s) => [s.mediaSequenceNumber, s.duration, new URL(s.uri, 'http://h/live/subs/en.m3u8').toString()]),
    );
    // hls-parser reports the tag where it is written; ours also carries it forward (seg1208 = 19:00:06).
    for (const [i, s] of oracle.segments.entries()) {
      if (s.programDateTime) expect(ours.segments[i]?.programDateTime).toBe(s.programDateTime.getTime());
    }
    expect(ours.segments[1]?.programDateTime).toBe(Date.UTC(2026, 10, 22, 19, 0, 6));
  });

  it('reads back the playlists the service writes', () => {
    const pdt = Date.UTC(2026, 10, 22, 19, 0, 0);
    const text = formatMediaPlaylist({ targetDuration: 2, mediaSequence: 40, segments: [{ uri: '40.vtt', duration: 1.75, programDateTime: pdt }, { uri: '41.vtt', duration: 2 }], endList: true });
    const oracle = HLS.parse(text);
    if (oracle.isMasterPlaylist) throw new Error('expected a media playlist');
    expect([oracle.targetDuration, oracle.mediaSequenceBase, oracle.endlist]).toEqual([2, 40, true]);
    expect(oracle.segments.map((s) => [s.uri, s.duration, s.programDateTime?.getTime()])).toEqual([
      ['40.vtt', 1.75, pdt],
      ['41.vtt', 2, undefined],
    ]);
  });
});
