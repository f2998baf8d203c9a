/**
 * Incremental scanner of the inline tag grammar, shared by the client (to keep tags and grapheme clusters
 * whole across frames) and the server (to apply their meaning). Syntax: see `syntax.ts`; hold-back rule for
 * grapheme clusters: see `graphemes.ts`.
 *
 * - `<config locale=".." voicePromptId=".." targetGender=".." />` becomes a `config` event.
 * - `</config>` is stripped: it becomes a `text` event with empty `text` and the tag as `raw`.
 * - `[name]` becomes a `bracket` event (name trimmed and lowercased); the interpreter decides whether it is
 *   an emotion or literal text.
 * - With `acceptEmojis`, each emoji grapheme becomes an `emoji` event (flags and globes carry a locale);
 *   otherwise emoji are plain text.
 * - A tag split across messages is held until it closes. A `<` or `[` that cannot start a tag is text at
 *   once. An opening still unclosed after `maxTagLength` (`maxBracketLength` for `[`) code units is released
 *   as text (bounded memory),
 *   and so is an unclosed opening at {@link TagScanner.flush}: it is spoken as written.
 * - A trailing grapheme cluster that the next message may continue (emoji, half a flag, keycap base, a
 *   letter awaiting a vowel sign, ...) is held back; text ending in an ASCII letter, space or punctuation is
 *   released whole at once. {@link TagScanner.drain} releases a held cluster when the caller decides no more
 *   text is coming soon; a held cluster longer than `maxTagLength` is released too.
 *
 * Invariants: concatenating the `raw` of every emitted event reproduces the consumed input exactly and
 * {@link TagScanner.pending} is the rest; the events (once adjacent plain text is merged) do not depend on
 * how the input was split into messages.
 */
import { EMOJI_CANDIDATES, classifyEmoji, type EmojiKind } from './emoji.js';
import { continuableTail, segmentGraphemes } from './graphemes.js';
import { matchTag, type ConfigTagAttributes, type TagLimits } from './syntax.js';

export type { ConfigTagAttributes } from './syntax.js';

/**
 * One unit of scanned input; `raw` is the exact source text it came from.
 * - `text`: plain text to speak (`text` equals `raw`, except a stripped `</config>`: `text` is empty).
 * - `config`: a config tag.
 * - `bracket`: `[name]` with `name` trimmed and lowercased; `raw` is spoken literally if it is no emotion.
 * - `emoji` (only with `acceptEmojis`): `kind` says what it means; flags of known countries and globes carry
 *   `locale`. A flag of an unknown country has no locale and is spoken as text.
 */
export type ScanEvent =
  | { type: 'text'; text: string; raw: string }
  | { type: 'config'; attributes: ConfigTagAttributes; raw: string }
  | { type: 'bracket'; name: string; raw: string }
  | { type: 'emoji'; emoji: string; kind: EmojiKind; locale?: string; raw: string };

/** Options of {@link TagScanner}. */
export interface TagScannerOptions {
  /** Turn emoji into `emoji` events (stream-config `acceptEmojis`). Default false: emoji are plain text. */
  acceptEmojis?: boolean;
  /**
   * Longest config tag (and held grapheme cluster), in UTF-16 code units; a longer `<config` opening is text.
   * Default {@link DEFAULT_MAX_TAG_LENGTH}.
   */
  maxTagLength?: number;
  /**
   * Longest `[name]` tag, brackets included; a longer `[` opening is text. Default
   * {@link DEFAULT_MAX_BRACKET_LENGTH}, capped at `maxTagLength`. Emotion names are short, and a `[` that
   * opens ordinary prose should not hold the text back for long.
   */
  maxBracketLength?: number;
}

/** Default of {@link TagScannerOptions.maxTagLength}. */
export const DEFAULT_MAX_TAG_LENGTH = 256;
/** Default of {@link TagScannerOptions.maxBracketLength}. */
export const DEFAULT_MAX_BRACKET_LENGTH = 64;

const TAG_START = /[<[]/g;

/** What to release at the end of a scan: nothing unfinished, held clusters only, or everything. */
type ScanMode = 'hold' | 'drain' | 'flush';

/** The incremental scanner: push text as it arrives, flush at the end of input. */
export class TagScanner {
  readonly #acceptEmojis: boolean;
  readonly #limits: TagLimits;
  #buffer = '';

  constructor(options: TagScannerOptions = {}) {
    this.#acceptEmojis = options.acceptEmojis ?? false;
    const angle = Math.max(1, options.maxTagLength ?? DEFAULT_MAX_TAG_LENGTH);
    this.#limits = { angle, bracket: Math.min(angle, Math.max(1, options.maxBracketLength ?? DEFAULT_MAX_BRACKET_LENGTH)) };
  }

  /** Raw input held back: an unfinished tag (and what follows it) or a trailing grapheme cluster. */
  get pending(): string {
    return this.#buffer;
  }

  /** Scans `chunk`; returns the events that are complete. */
  push(chunk: string): ScanEvent[] {
    this.#buffer += chunk;
    return this.#scan('hold');
  }

  /**
   * Releases a held trailing grapheme cluster but keeps an unfinished tag: for a caller that decides no more
   * text is coming soon (a cluster completed later then straddles two events).
   */
  drain(): ScanEvent[] {
    return this.#scan('drain');
  }

  /** End of input: everything held is released; an unfinished tag becomes plain text. */
  flush(): ScanEvent[] {
    return this.#scan('flush');
  }

  /** Drops held input (on cancel). */
  reset(): void {
    this.#buffer = '';
  }

  #scan(mode: ScanMode): ScanEvent[] {
    const buf = this.#buffer;
    const events: ScanEvent[] = [];
    let textStart = 0;
    let heldFrom = buf.length;
    TAG_START.lastIndex = 0;
    for (let m = TAG_START.exec(buf); m; m = TAG_START.exec(buf)) {
      const at = m.index;
      const tag = matchTag(buf, at, this.#limits);
      if (tag === 'partial' && mode !== 'flush') {
        heldFrom = at;
        break;
      }
      if (tag === undefined || tag === 'partial') continue;
      this.#text(buf.slice(textStart, at), events);
      const raw = buf.slice(at, tag.end);
      if (tag.type === 'config') events.push({ type: 'config', attributes: tag.attributes, raw });
      else if (tag.type === 'bracket') events.push({ type: 'bracket', name: tag.name, raw });
      else events.push({ type: 'text', text: '', raw });
      textStart = TAG_START.lastIndex = tag.end;
    }
    let text = buf.slice(textStart, heldFrom);
    if (mode === 'hold' && heldFrom === buf.length) {
      const tail = continuableTail(text);
      if (tail < this.#limits.angle) {
        heldFrom -= tail;
        text = text.slice(0, text.length - tail);
      }
    }
    this.#text(text, events);
    this.#buffer = buf.slice(heldFrom);
    return events;
  }

  /** Emits plain text, split into text and emoji events when emoji are accepted (segments only around emoji). */
  #text(text: string, events: ScanEvent[]): void {
    if (!text) return;
    let from = 0;
    if (this.#acceptEmojis) {
      EMOJI_CANDIDATES.lastIndex = 0;
      let segments: Intl.Segments | undefined;
      for (let m = EMOJI_CANDIDATES.exec(text); m; m = EMOJI_CANDIDATES.exec(text)) {
        segments ??= segmentGraphemes(text);
        const cluster = segments.containing(m.index);
        if (!cluster) break;
        const end = cluster.index + cluster.segment.length;
        EMOJI_CANDIDATES.lastIndex = end;
        const emoji = classifyEmoji(cluster.segment);
        if (!emoji) continue;
        if (cluster.index > from) events.push(plain(text.slice(from, cluster.index)));
        events.push({ type: 'emoji', emoji: cluster.segment, kind: emoji.kind, ...(emoji.locale ? { locale: emoji.locale } : {}), raw: cluster.segment });
        from = end;
      }
    }
    if (from < text.length) events.push(plain(from === 0 ? text : text.slice(from)));
  }
}

function plain(text: string): ScanEvent {
  return { type: 'text', text, raw: text };
}
