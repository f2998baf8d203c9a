/**
 * A growing live HLS origin on 127.0.0.1:0 for the captions tests: a master playlist with two WebVTT subtitle
 * renditions (en default, de), a sliding window of 3 segments of 2 s, cues of 1.2 s every 1.5 s (so cues overlap
 * segment boundaries and repeat in two segments) and `X-TIMESTAMP-MAP=MPEGTS:900000,LOCAL:00:00:00.000` (+10 s).
 * The media playlist tags its first segment with `EXT-X-PROGRAM-DATE-TIME` (segment n starts at `programStart + 2 s·n`).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Seconds added by the origin's X-TIMESTAMP-MAP. */
export const ORIGIN_OFFSET_S = 10;
const SEGMENT_S = 2;
const WINDOW = 3;

/** Cue `k` in the origin's local time. */
export function originCue(k: number, lang = 'en'): { start: number; end: number; text: string } {
  return { start: k * 1.5, end: k * 1.5 + 1.2, text: lang === 'en' ? `line ${k}` : `${lang} line ${k}` };
}

/** Every cue in media time that the first `segments` segments contain. */
export function expectedCues(segments: number, lang = 'en'): Array<{ start: number; end: number; text: string }> {
  const out = [];
  for (let k = 0; originCue(k).start < segments * SEGMENT_S; k++) {
    const c = originCue(k, lang);
    out.push({ start: c.start + ORIGIN_OFFSET_S, end: c.end + ORIGIN_OFFSET_S, text: c.text });
  }
  return out;
}

const ts = (s: number): string => {
  const ms = Math.round(s * 1000);
  return `00:${String(Math.floor(ms / 60000)).padStart(2, '0')}:${String(Math.floor(ms / 1000) % 60).padStart(2, '0')}.${String(ms % 1000).padStart(3, '0')}`;
};

/** A running origin. */
export interface LiveOrigin {
  masterUrl: string;
  /** Program date-time (epoch ms) of segment 0. */
  programStart: number;
  renditionUrl(lang: string): string;
  /** Makes `count` segments exist in total (the window shows the last 3). */
  publish(count: number): void;
  /** Adds `#EXT-X-ENDLIST`. */
  end(): void;
  /** The next `n` media playlist requests answer 500. */
  failPlaylist(n: number): void;
  close(): Promise<void>;
}

/** Starts an origin with no segments published. */
export async function startOrigin(): Promise<LiveOrigin> {
  let published = 0;
  let ended = false;
  let failures = 0;
  const programStart = Date.now();
  const segment = (n: number, lang: string): string => {
    let body = 'WEBVTT\nX-TIMESTAMP-MAP=MPEGTS:900000,LOCAL:00:00:00.000\n';
    for (let k = 0; originCue(k).start < (n + 1) * SEGMENT_S; k++) {
      const c = originCue(k, lang);
      if (c.end > n * SEGMENT_S) body += `\n${k}\n${ts(c.start)} --> ${ts(c.end)} align:center\n${c.text}\n`;
    }
    return body;
  };
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const send = (status: number, body: string): void => void res.writeHead(status, { 'content-type': 'text/plain' }).end(body);
    if (path === '/live/master.m3u8') {
      return send(
        200,
        '#EXTM3U\n' +
          '#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="English, CC",LANGUAGE="en",DEFAULT=YES,AUTOSELECT=YES,URI="subs/en.m3u8"\n' +
          '#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="Deutsch",LANGUAGE="de",URI="subs/de.m3u8"\n' +
          '#EXT-X-STREAM-INF:BANDWIDTH=800000,SUBTITLES="subs"\nvideo.m3u8\n',
      );
    }
    const playlist = /^\/live\/subs\/(\w+)\.m3u8$/.exec(path);
    if (playlist) {
      if (failures > 0) {
        failures--;
        return send(500, 'origin overloaded');
      }
      const first = Math.max(0, published - WINDOW);
      let body = `#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:${SEGMENT_S}\n#EXT-X-MEDIA-SEQUENCE:${first}\n`;
      body += `#EXT-X-PROGRAM-DATE-TIME:${new Date(programStart + first * SEGMENT_S * 1000).toISOString()}\n`;
      for (let n = first; n < published; n++) body += `#EXTINF:${SEGMENT_S}.000,\n${playlist[1]}/seg${n}.vtt\n`;
      if (ended) body += '#EXT-X-ENDLIST\n';
      return send(200, body);
    }
    const seg = /^\/live\/subs\/(\w+)\/seg(\d+)\.vtt$/.exec(path);
    if (seg && Number(seg[2]) < published) return send(200, segment(Number(seg[2]), seg[1] ?? 'en'));
    send(404, 'not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/live`;
  return {
    masterUrl: `${base}/master.m3u8`,
    programStart,
    renditionUrl: (lang) => `${base}/subs/${lang}.m3u8`,
    publish: (count) => void (published = count),
    end: () => void (ended = true),
    failPlaylist: (n) => void (failures = n),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Keep-alive sockets of followers that were stopped would otherwise hold close() until they time out.
        server.closeAllConnections();
      }),
  };
}
