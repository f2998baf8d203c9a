/**
 * Follows a live HLS WebVTT subtitle track over HTTP: resolves a master playlist to the subtitle rendition of a
 * language, reloads the media playlist (target duration after a change, half of it otherwise, RFC 8216 §6.3.4),
 * fetches each new segment once by media sequence with a timeout and a size bound, maps cue times through
 * `X-TIMESTAMP-MAP` (unwrapping the 33-bit MPEG-TS clock), suppresses cues repeated or split across overlapping
 * segments ({@link CueDeduper}), and ends at `#EXT-X-ENDLIST`. Problems are yielded as `error` events (a problem
 * repeating on every reload is yielded once, until a reload succeeds) and following continues.
 */
import { CueDeduper } from '../../hls/cue-dedupe.js';
import { parsePlaylist, pickSubtitleRendition, type MediaPlaylist } from '../../hls/playlist.js';
import { MpegTsClock, parseWebVtt, toMediaTime, WebVttParseError, type VttCue } from '../../hls/webvtt.js';

/** What {@link followCaptions} yields. */
export type FollowEvent =
  | { type: 'resolved'; playlistUrl: string }
  /**
   * A new cue, with when its segment became available (epoch ms: first reload that listed it; for segments already
   * in the window at the first load, that load's time) and the segment's program date-time, when the playlist has one.
   */
  | { type: 'cue'; cue: VttCue; availableAt: number; programDateTime: number | undefined }
  | { type: 'error'; message: string }
  /** One playlist reload was processed (cues of it were yielded before). */
  | { type: 'reloaded'; targetDuration: number }
  | { type: 'ended' };

/** Options of {@link followCaptions}. */
export interface FollowOptions {
  /** Master or media playlist URL. */
  url: string;
  /** Language of the subtitle rendition to pick from a master playlist. */
  lang: string;
  /** Pick the default (or first) rendition when none matches `lang`. Default false. */
  fallbackRendition?: boolean;
  signal: AbortSignal;
  /** Timeout of each playlist or segment request. Default 5000 ms. */
  requestTimeoutMs?: number;
  /** Fixed reload interval overriding the target-duration rule (tests). */
  reloadMs?: number | undefined;
  fetch?: typeof fetch;
}

/** Largest accepted playlist or segment body, in bytes; reading stops there. */
export const MAX_BODY_BYTES = 4 * 1024 * 1024;

/** A playlist or segment body exceeded {@link MAX_BODY_BYTES}. */
class ResponseTooLargeError extends Error {
  override name = 'ResponseTooLargeError';
}

/** Follows the subtitle track at `options.url`; the iteration ends at ENDLIST or when `signal` aborts. */
export async function* followCaptions(options: FollowOptions): AsyncGenerator<FollowEvent> {
  const get = (url: string): Promise<string> => fetchText(url, options);
  const dedupe = new CueDeduper();
  const clock = new MpegTsClock();
  let mediaUrl: string | undefined;
  let nextSeq: number | undefined;
  let lastText = '';
  let targetDuration = 2;
  let lastError: string | undefined;
  let firstSeen = new Map<number, number>();
  while (!options.signal.aborted) {
    let changed = false;
    try {
      let text: string | undefined;
      if (mediaUrl === undefined) {
        const first = await get(options.url);
        const parsed = parsePlaylist(first, options.url);
        if (parsed.kind === 'master') {
          const rendition = pickSubtitleRendition(parsed, options.lang, options.fallbackRendition ?? false);
          if (!rendition) throw new Error(`no SUBTITLES rendition for language ${options.lang} in ${options.url}`);
          mediaUrl = rendition.uri;
        } else {
          mediaUrl = options.url;
          text = first;
        }
        yield { type: 'resolved', playlistUrl: mediaUrl };
      }
      text ??= await get(mediaUrl);
      changed = text !== lastText;
      lastText = text;
      const playlist = parsePlaylist(text, mediaUrl);
      if (playlist.kind !== 'media') throw new Error(`expected a media playlist at ${mediaUrl}`);
      targetDuration = playlist.targetDuration;
      nextSeq = windowStart(playlist, nextSeq);
      const now = Date.now();
      const seenBefore = firstSeen;
      firstSeen = new Map(playlist.segments.map((s) => [s.seq, seenBefore.get(s.seq) ?? now]));
      for (const segment of playlist.segments) {
        if (segment.seq < nextSeq) continue;
        let doc: ReturnType<typeof parseWebVtt>;
        try {
          doc = parseWebVtt(await get(segment.uri));
        } catch (error) {
          if (!(error instanceof WebVttParseError || error instanceof ResponseTooLargeError)) throw error;
          // A broken or oversized segment will not get better: report it and move on (a failed fetch is retried instead).
          nextSeq = segment.seq + 1;
          yield { type: 'error', message: `segment ${segment.seq}: ${(error as Error).message}` };
          continue;
        }
        const map = doc.timestampMap && { local: doc.timestampMap.local, mpegts: clock.unwrap(doc.timestampMap.mpegts) };
        const cues = doc.cues
          .map((c) => ({ start: round(toMediaTime(c.start, map)), end: round(toMediaTime(c.end, map)), text: c.text }))
          .sort((a, b) => a.start - b.start || a.end - b.end);
        for (const cue of cues) {
          if (!dedupe.accept(cue)) continue;
          yield { type: 'cue', cue, availableAt: firstSeen.get(segment.seq) ?? now, programDateTime: segment.programDateTime };
        }
        nextSeq = segment.seq + 1;
      }
      lastError = undefined;
      yield { type: 'reloaded', targetDuration };
      if (playlist.endList) {
        yield { type: 'ended' };
        return;
      }
    } catch (error) {
      if (options.signal.aborted) return;
      const message = (error as Error).message;
      if (message !== lastError) yield { type: 'error', message };
      lastError = message;
    }
    const waitMs = options.reloadMs ?? (changed ? targetDuration * 1000 : (targetDuration * 1000) / 2);
    await delay(waitMs, options.signal);
  }
}

/** Where to continue in `playlist`: the saved position, or the window start when the position fell out of it or the stream restarted. */
function windowStart(playlist: MediaPlaylist, nextSeq: number | undefined): number {
  const last = playlist.mediaSequence + playlist.segments.length;
  if (nextSeq === undefined || nextSeq < playlist.mediaSequence || nextSeq > last) return playlist.mediaSequence;
  return nextSeq;
}

const round = (s: number): number => Math.round(s * 1000) / 1000;

async function fetchText(url: string, options: FollowOptions): Promise<string> {
  const timeout = AbortSignal.timeout(options.requestTimeoutMs ?? 5000);
  const signal = AbortSignal.any([options.signal, timeout]);
  let res: Response;
  try {
    res = await (options.fetch ?? fetch)(url, { signal });
  } catch (error) {
    if (timeout.aborted) throw new Error(`timed out fetching ${url}`);
    throw new Error(`cannot fetch ${url}: ${(error as Error).message}`);
  }
  if (!res.ok) {
    await res.body?.cancel();
    throw new Error(`HTTP ${res.status} fetching ${url}`);
  }
  const tooLarge = (): Error => new ResponseTooLargeError(`response larger than ${MAX_BODY_BYTES} bytes from ${url}`);
  if (Number(res.headers.get('content-length') ?? 0) > MAX_BODY_BYTES) {
    await res.body?.cancel();
    throw tooLarge();
  }
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    // Leaving the loop early (throw) cancels the body stream.
    for await (const chunk of res.body ?? []) {
      total += chunk.byteLength;
      if (total > MAX_BODY_BYTES) throw tooLarge();
      chunks.push(chunk);
    }
  } catch (error) {
    if (timeout.aborted) throw new Error(`timed out fetching ${url}`);
    throw error;
  }
  return Buffer.concat(chunks).toString('utf8');
}

function delay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}
