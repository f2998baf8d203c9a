/**
 * WebVTT parsing and writing for HLS subtitle segments, with `X-TIMESTAMP-MAP` (RFC 8216 §3.5), and the SRT
 * writer. Cue times mapped by {@link toMediaTime} are seconds of media time: the cue's local time shifted so that
 * `LOCAL` lands on `MPEGTS / 90000`. No I/O.
 */

/** One cue as written in a WebVTT file (times in seconds of the file's own timeline). */
export interface VttCue {
  start: number;
  end: number;
  text: string;
}

/** `X-TIMESTAMP-MAP=MPEGTS:<90 kHz ticks>,LOCAL:<cue time>`. */
export interface TimestampMap {
  mpegts: number;
  /** Seconds. */
  local: number;
}

/** A parsed WebVTT document. */
export interface WebVttDocument {
  cues: VttCue[];
  timestampMap: TimestampMap | undefined;
}

/** A WebVTT document could not be parsed. */
export class WebVttParseError extends Error {
  override name = 'WebVttParseError';
}

const TIMESTAMP = /^(?:(\d+):)?([0-5]\d):([0-5]\d)[.,](\d{3})$/;

/** Parses `[hh:]mm:ss.ttt` into seconds; undefined when malformed. */
export function parseTimestamp(value: string): number | undefined {
  const m = TIMESTAMP.exec(value.trim());
  if (!m) return undefined;
  return Number(m[1] ?? 0) * 3600 + Number(m[2]) * 60 + Number(m[3]) + Number(m[4]) / 1000;
}

/** Formats seconds as `hh:mm:ss.ttt` (or `hh:mm:ss,ttt` for SRT). */
export function formatTimestamp(seconds: number, separator: '.' | ',' = '.'): string {
  const ms = Math.max(0, Math.round(seconds * 1000));
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor(ms / 60_000) % 60;
  const s = Math.floor(ms / 1000) % 60;
  const pad = (n: number, w = 2): string => String(n).padStart(w, '0');
  return `${pad(h)}:${pad(m)}:${pad(s)}${separator}${pad(ms % 1000, 3)}`;
}

/** Parses a WebVTT document; NOTE, STYLE and REGION blocks are skipped. Throws {@link WebVttParseError}. */
export function parseWebVtt(text: string): WebVttDocument {
  const normalized = text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  if (!/^WEBVTT(?:[ \t]|\n|$)/.test(normalized)) throw new WebVttParseError('not a WebVTT document (missing WEBVTT header)');
  const blocks = normalized.split(/\n{2,}/);
  let timestampMap: TimestampMap | undefined;
  for (const line of (blocks[0] ?? '').split('\n')) {
    if (!line.startsWith('X-TIMESTAMP-MAP=')) continue;
    const fields = new Map(line.slice(16).split(',').map((kv) => [kv.slice(0, kv.indexOf(':')).trim(), kv.slice(kv.indexOf(':') + 1).trim()] as const));
    const mpegts = Number(fields.get('MPEGTS'));
    const local = parseTimestamp(fields.get('LOCAL') ?? '');
    if (!Number.isFinite(mpegts) || local === undefined) throw new WebVttParseError(`invalid X-TIMESTAMP-MAP: ${line}`);
    timestampMap = { mpegts, local };
  }
  const cues: VttCue[] = [];
  for (const block of blocks.slice(1)) {
    const lines = block.split('\n').filter((l, i, all) => i < all.length - 1 || l !== '');
    const timingAt = lines.findIndex((l) => l.includes('-->'));
    if (timingAt < 0 || timingAt > 1 || /^(NOTE|STYLE|REGION)\b/.test(lines[0] ?? '')) continue;
    const [startText = '', rest = ''] = (lines[timingAt] ?? '').split('-->');
    const start = parseTimestamp(startText);
    const end = parseTimestamp(rest.trim().split(/[ \t]+/)[0] ?? '');
    if (start === undefined || end === undefined) throw new WebVttParseError(`invalid cue timing: ${lines[timingAt]}`);
    cues.push({ start, end, text: lines.slice(timingAt + 1).join('\n') });
  }
  return { cues, timestampMap };
}

/** Maps a cue time of a document with `map` to media time in seconds (identity without a map). */
export function toMediaTime(seconds: number, map: TimestampMap | undefined): number {
  return map ? seconds - map.local + map.mpegts / 90_000 : seconds;
}

/** MPEG-TS timestamps are 33-bit 90 kHz counters: they wrap every 2^33 ticks (about 26.5 hours). */
export const MPEGTS_WRAP = 2 ** 33;

/** Unwraps successive `MPEGTS` values of one stream so media time keeps growing across the 33-bit wrap. */
export class MpegTsClock {
  #last: number | undefined;

  /** The unwrapped value of `mpegts`: the candidate (`mpegts + k·2^33`) nearest to the previous value. */
  unwrap(mpegts: number): number {
    const value = this.#last === undefined ? mpegts : mpegts + Math.round((this.#last - mpegts) / MPEGTS_WRAP) * MPEGTS_WRAP;
    this.#last = value;
    return value;
  }
}

/** Writes a WebVTT document whose cue times are media time (`X-TIMESTAMP-MAP=MPEGTS:0,LOCAL:00:00:00.000`). */
export function formatWebVtt(cues: Iterable<VttCue>, options: { timestampMap?: boolean } = {}): string {
  const header = options.timestampMap ? 'WEBVTT\nX-TIMESTAMP-MAP=MPEGTS:0,LOCAL:00:00:00.000\n' : 'WEBVTT\n';
  let out = header;
  for (const cue of cues) out += `\n${vttBlock(cue)}`;
  return out;
}

/** One WebVTT cue block (timing line, text, blank line). */
export function vttBlock(cue: VttCue): string {
  return `${formatTimestamp(cue.start)} --> ${formatTimestamp(cue.end)}\n${cue.text}\n`;
}

/** One SRT block with its 1-based `index`. */
export function srtBlock(cue: VttCue, index: number): string {
  return `${index}\n${formatTimestamp(cue.start, ',')} --> ${formatTimestamp(cue.end, ',')}\n${cue.text}\n\n`;
}

/** Writes cues as an SRT document. */
export function formatSrt(cues: Iterable<VttCue>): string {
  let out = '';
  let index = 0;
  for (const cue of cues) out += srtBlock(cue, ++index);
  return out;
}
