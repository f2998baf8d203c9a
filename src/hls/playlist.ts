/**
 * HLS playlist parsing (RFC 8216) for caption following: master playlists (subtitle renditions from
 * `#EXT-X-MEDIA:TYPE=SUBTITLES`) and media playlists (target duration, media sequence, segments, ENDLIST),
 * plus the writer of the media playlists the live service publishes. No I/O.
 */

/** A `#EXT-X-MEDIA:TYPE=SUBTITLES` rendition of a master playlist. */
export interface SubtitleRendition {
  groupId: string;
  /** `LANGUAGE` attribute (BCP-47), when present. */
  language: string | undefined;
  name: string | undefined;
  /** Absolute URL of the rendition's media playlist. */
  uri: string;
  isDefault: boolean;
}

/** A master playlist: only what caption following needs. */
export interface MasterPlaylist {
  kind: 'master';
  subtitles: SubtitleRendition[];
}

/** One media segment with its media sequence number and absolute URL. */
export interface MediaSegment {
  seq: number;
  uri: string;
  /** `#EXTINF` duration in seconds. */
  duration: number;
  /**
   * Program date-time of the segment's start in epoch ms: its own `#EXT-X-PROGRAM-DATE-TIME`, else the previous
   * segment's plus that segment's duration (RFC 8216 §4.3.2.6); undefined when the playlist has none before it.
   */
  programDateTime: number | undefined;
}

/** A media playlist. */
export interface MediaPlaylist {
  kind: 'media';
  /** `#EXT-X-TARGETDURATION` in seconds. */
  targetDuration: number;
  /** Sequence number of the first segment (`#EXT-X-MEDIA-SEQUENCE`, default 0). */
  mediaSequence: number;
  segments: MediaSegment[];
  /** `#EXT-X-ENDLIST` seen: no more segments will be added. */
  endList: boolean;
}

/** A playlist could not be parsed. */
export class PlaylistParseError extends Error {
  override name = 'PlaylistParseError';
}

/** Parses an attribute list (`KEY=VALUE,KEY="quoted, value"`) into a map; keys keep their case. */
export function parseAttributes(list: string): Map<string, string> {
  const out = new Map<string, string>();
  const re = /([A-Z0-9-]+)=("[^"]*"|[^,]*)/g;
  for (const m of list.matchAll(re)) {
    const raw = m[2] ?? '';
    out.set(m[1] ?? '', raw.startsWith('"') ? raw.slice(1, -1) : raw);
  }
  return out;
}

/** Parses `text` fetched from `baseUrl` (relative URIs are resolved against it). Throws {@link PlaylistParseError}. */
export function parsePlaylist(text: string, baseUrl: string): MasterPlaylist | MediaPlaylist {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/).map((l) => l.trim());
  if (lines[0] !== '#EXTM3U') throw new PlaylistParseError('not an HLS playlist (missing #EXTM3U)');
  const resolve = (uri: string): string => {
    try {
      return new URL(uri, baseUrl).toString();
    } catch {
      throw new PlaylistParseError(`invalid URI in playlist: ${uri}`);
    }
  };
  const isMaster = lines.some((l) => l.startsWith('#EXT-X-STREAM-INF') || l.startsWith('#EXT-X-MEDIA:'));
  if (isMaster) {
    const subtitles: SubtitleRendition[] = [];
    for (const line of lines) {
      if (!line.startsWith('#EXT-X-MEDIA:')) continue;
      const a = parseAttributes(line.slice('#EXT-X-MEDIA:'.length));
      const uri = a.get('URI');
      if (a.get('TYPE') !== 'SUBTITLES' || !uri) continue;
      subtitles.push({ groupId: a.get('GROUP-ID') ?? '', language: a.get('LANGUAGE'), name: a.get('NAME'), uri: resolve(uri), isDefault: a.get('DEFAULT') === 'YES' });
    }
    return { kind: 'master', subtitles };
  }
  let targetDuration: number | undefined;
  let mediaSequence = 0;
  let endList = false;
  let pending: number | undefined;
  let programDateTime: number | undefined;
  const segments: MediaSegment[] = [];
  for (const line of lines) {
    if (line.startsWith('#EXT-X-TARGETDURATION:')) targetDuration = Number(line.slice(22));
    else if (line.startsWith('#EXT-X-PROGRAM-DATE-TIME:')) {
      programDateTime = Date.parse(line.slice(25));
      if (!Number.isFinite(programDateTime)) throw new PlaylistParseError(`invalid #EXT-X-PROGRAM-DATE-TIME: ${line.slice(25)}`);
    }
    else if (line.startsWith('#EXT-X-MEDIA-SEQUENCE:')) mediaSequence = Number(line.slice(22));
    else if (line === '#EXT-X-ENDLIST') endList = true;
    else if (line.startsWith('#EXTINF:')) pending = Number.parseFloat(line.slice(8));
    else if (line !== '' && !line.startsWith('#')) {
      if (pending === undefined || !Number.isFinite(pending)) throw new PlaylistParseError(`segment without #EXTINF: ${line}`);
      segments.push({ seq: mediaSequence + segments.length, uri: resolve(line), duration: pending, programDateTime });
      if (programDateTime !== undefined) programDateTime += pending * 1000;
      pending = undefined;
    }
  }
  if (targetDuration === undefined || !Number.isFinite(targetDuration) || targetDuration <= 0) {
    throw new PlaylistParseError('media playlist without a valid #EXT-X-TARGETDURATION');
  }
  if (!Number.isInteger(mediaSequence) || mediaSequence < 0) throw new PlaylistParseError('invalid #EXT-X-MEDIA-SEQUENCE');
  return { kind: 'media', targetDuration, mediaSequence, segments, endList };
}

/**
 * Picks the subtitle rendition for `lang`: an exact (case-insensitive) LANGUAGE match, else one with the same
 * primary subtag (`en` for `en-US`), preferring DEFAULT=YES. With `fallback`, the default (or first) rendition
 * is returned when none matches.
 */
export function pickSubtitleRendition(master: MasterPlaylist, lang: string, fallback = false): SubtitleRendition | undefined {
  const want = lang.toLowerCase();
  const primary = (tag: string | undefined): string => (tag ?? '').toLowerCase().split('-')[0] ?? '';
  const best = (list: SubtitleRendition[]): SubtitleRendition | undefined => list.find((r) => r.isDefault) ?? list[0];
  return (
    best(master.subtitles.filter((r) => r.language?.toLowerCase() === want)) ??
    best(master.subtitles.filter((r) => primary(r.language) === primary(want))) ??
    (fallback ? best(master.subtitles) : undefined)
  );
}

/** What {@link formatMediaPlaylist} writes. */
export interface MediaPlaylistSpec {
  targetDuration: number;
  mediaSequence: number;
  /** `programDateTime` (epoch ms), when given, is written as `#EXT-X-PROGRAM-DATE-TIME` before the segment. */
  segments: ReadonlyArray<{ uri: string; duration: number; programDateTime?: number | undefined }>;
  endList: boolean;
}

/** Writes a live (or ended) media playlist. */
export function formatMediaPlaylist(spec: MediaPlaylistSpec): string {
  const lines = ['#EXTM3U', '#EXT-X-VERSION:3', `#EXT-X-TARGETDURATION:${Math.ceil(spec.targetDuration)}`, `#EXT-X-MEDIA-SEQUENCE:${spec.mediaSequence}`];
  for (const s of spec.segments) {
    if (s.programDateTime !== undefined) lines.push(`#EXT-X-PROGRAM-DATE-TIME:${new Date(s.programDateTime).toISOString()}`);
    lines.push(`#EXTINF:${s.duration.toFixed(3)},`, s.uri);
  }
  if (spec.endList) lines.push('#EXT-X-ENDLIST');
  return `${lines.join('\n')}\n`;
}
