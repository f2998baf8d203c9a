/**
 * The caption output of one language of a running service: an in-memory live HLS WebVTT media playlist with a
 * sliding window of segments. Segment cue times are media time (`X-TIMESTAMP-MAP=MPEGTS:0,LOCAL:00:00:00.000`).
 */
import { formatMediaPlaylist } from '../../hls/playlist.js';
import { formatWebVtt, type VttCue } from '../../hls/webvtt.js';

/** Path of a service's caption playlist for `lang` (segments are `<seq>.vtt` next to it). */
export const captionsPlaylistPath = (id: number, lang: string): string => `/live/services/${id}/captions/${encodeURIComponent(lang)}/playlist.m3u8`;

/** Segments kept in the playlist window. */
export const CAPTION_WINDOW_SEGMENTS = 6;

/** One language's published captions. */
export class CaptionOutput {
  readonly #segments: Array<{ seq: number; duration: number; programDateTime: number; body: string }> = [];
  #nextSeq = 0;
  #targetDuration = 2;
  #ended = false;

  /** Publishes `cues` as one new segment of `duration` seconds with its program date-time (epoch ms); nothing when empty. */
  append(cues: readonly VttCue[], duration: number, programDateTime: number): void {
    if (cues.length === 0 || this.#ended) return;
    this.#targetDuration = Math.max(1, Math.ceil(duration));
    this.#segments.push({ seq: this.#nextSeq++, duration, programDateTime, body: formatWebVtt(cues, { timestampMap: true }) });
    while (this.#segments.length > CAPTION_WINDOW_SEGMENTS) this.#segments.shift();
  }

  /** Marks the output ended (`#EXT-X-ENDLIST`). */
  end(): void {
    this.#ended = true;
  }

  /** The media playlist; segment URIs are `<seq>.vtt`, relative to the playlist. */
  playlist(): string {
    return formatMediaPlaylist({
      targetDuration: this.#targetDuration,
      mediaSequence: this.#segments[0]?.seq ?? this.#nextSeq,
      segments: this.#segments.map((s) => ({ uri: `${s.seq}.vtt`, duration: s.duration, programDateTime: s.programDateTime })),
      endList: this.#ended,
    });
  }

  /** A segment still in the window. */
  segment(seq: number): string | undefined {
    return this.#segments.find((s) => s.seq === seq)?.body;
  }
}
