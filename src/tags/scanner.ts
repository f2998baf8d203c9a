/**
 * Incremental scanner of the inline tag grammar, shared by the client (to keep tags and grapheme clusters
 * whole across frames) and the server (to apply their meaning).
 *
 * - `<config locale=".." voicePromptId=".." targetGender=".." />` (any order, either quote, self-closing or
 *   not) becomes a `config` event; `</config>` is stripped (a `text` event with empty text and the tag as raw).
 * - `[name]` becomes a `bracket` event (name trimmed and lowercased); the interpreter decides whether it is
 *   an emotion or literal text.
 * - With `acceptEmojis`, each emoji grapheme becomes an `emoji` event; otherwise emoji are text.
 * - A tag split across messages is held until it closes. A `<` that cannot start a config tag is text; an
 *   opening that stays unclosed past `maxTagLength` characters is released as text (bounded memory), and so
 *   is an unclosed tag at {@link TagScanner.flush}.
 * - The last grapheme cluster of the input is held back (it may continue in the next message: ZWJ
 *   sequences, skin tones, flags, keycaps, combining marks) unless it is whitespace or ASCII punctuation;
 *   {@link TagScanner.drain} releases it when the caller decides no more text is coming soon.
 *
 * Invariant: concatenating the `raw` of every emitted event reproduces the consumed input exactly;
 * {@link TagScanner.pending} is the rest.
 */
import { classifyEmoji, type EmojiKind } from './emoji.js';

/** Attributes a config tag may set. */
export interface ConfigTagAttributes {
  locale?: string;
  voicePromptId?: string;
  targetGender?: string;
}

/** One unit of scanned input. */
export type ScanEvent =
  | { type: 'text'; text: string; raw: string }
  | { type: 'config'; attributes: ConfigTagAttributes; raw: string }
  | { type: 'bracket'; name: string; raw: string }
  | { type: 'emoji'; emoji: string; kind: EmojiKind; locale?: string; raw: string };

/** Options of {@link TagScanner}. */
export interface TagScannerOptions {
  /** Treat flag, globe, neutral and other emoji as tags. Default false. */
  acceptEmojis?: boolean;
  /** Longest tag held while waiting for its end; longer openings are text. Default 512. */
  maxTagLength?: number;
}

const CONFIG_TAG = /^<\s*config\b([^<>]*?)\/?\s*>/i;
const CLOSING_CONFIG = /^<\s*\/\s*config\s*>/i;
const ATTRIBUTE = /([A-Za-z_][\w-]*)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'<>/]+))/g;
const KNOWN_ATTRIBUTES: Record<string, keyof ConfigTagAttributes> = { locale: 'locale', voicepromptid: 'voicePromptId', targetgender: 'targetGender' };
const SEGMENTER = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** Whether `rest` (starting with `<`, no `>` yet) may still become a config or closing-config tag. */
function mayBecomeConfigTag(rest: string): boolean {
  const m = /^<\s*(\/\s*)?([A-Za-z]*)/.exec(rest);
  if (!m) return false;
  const word = (m[2] ?? '').toLowerCase();
  const after = rest.slice(m[0].length);
  if (word.length < 6) return 'config'.startsWith(word) && after === '';
  return word === 'config' && (after === '' || /^[\s/]/.test(after) || m[1] === undefined);
}

function parseAttributes(source: string): ConfigTagAttributes {
  const out: ConfigTagAttributes = {};
  for (const m of source.matchAll(ATTRIBUTE)) {
    const key = KNOWN_ATTRIBUTES[(m[1] ?? '').toLowerCase()];
    if (key) out[key] = m[2] ?? m[3] ?? m[4] ?? '';
  }
  return out;
}

/** Whether a trailing grapheme is safe to emit now (cannot be continued by the next message in practice). */
function isSettled(grapheme: string): boolean {
  return /^\s+$/.test(grapheme) || /^[!-/:-@[-`{-~]$/.test(grapheme);
}

/** The incremental scanner. */
export class TagScanner {
  readonly #acceptEmojis: boolean;
  readonly #maxTag: number;
  #buffer = '';

  constructor(options: TagScannerOptions = {}) {
    this.#acceptEmojis = options.acceptEmojis ?? false;
    this.#maxTag = options.maxTagLength ?? 512;
  }

  /** Raw input held back (an unfinished tag or a trailing grapheme cluster). */
  get pending(): string {
    return this.#buffer;
  }

  /** Scans `chunk`; returns the events that are complete. */
  push(chunk: string): ScanEvent[] {
    this.#buffer += chunk;
    return this.#scan('hold');
  }

  /** Releases a held trailing grapheme (not an unfinished tag): call when no more text is expected soon. */
  drain(): ScanEvent[] {
    return this.#scan('graphemes');
  }

  /** End of input: everything held is released; unfinished tags become text. */
  flush(): ScanEvent[] {
    return this.#scan('all');
  }

  /** Drops held input (on cancel). */
  reset(): void {
    this.#buffer = '';
  }

  #scan(mode: 'hold' | 'graphemes' | 'all'): ScanEvent[] {
    const events: ScanEvent[] = [];
    const buf = this.#buffer;
    let text = '';
    let i = 0;
    const emitText = (): void => {
      if (text) events.push(...this.#textEvents(text));
      text = '';
    };
    while (i < buf.length) {
      const ch = buf[i] as string;
      if (ch === '<') {
        const rest = buf.slice(i);
        const closing = CLOSING_CONFIG.exec(rest);
        const open = closing ? undefined : CONFIG_TAG.exec(rest);
        if (closing) {
          emitText();
          events.push({ type: 'text', text: '', raw: closing[0] });
          i += closing[0].length;
          continue;
        }
        if (open) {
          emitText();
          events.push({ type: 'config', attributes: parseAttributes(open[1] ?? ''), raw: open[0] });
          i += open[0].length;
          continue;
        }
        if (mode !== 'all' && !rest.includes('>') && rest.length < this.#maxTag && mayBecomeConfigTag(rest)) break;
      } else if (ch === '[') {
        const close = buf.indexOf(']', i + 1);
        const reopen = buf.indexOf('[', i + 1);
        if (close !== -1 && (reopen === -1 || close < reopen) && close - i < this.#maxTag) {
          emitText();
          const raw = buf.slice(i, close + 1);
          events.push({ type: 'bracket', name: raw.slice(1, -1).trim().toLowerCase(), raw });
          i = close + 1;
          continue;
        }
        if (mode !== 'all' && close === -1 && reopen === -1 && buf.length - i < this.#maxTag) break;
      }
      text += ch;
      i++;
    }
    let held = buf.slice(i);
    if (held === '' && mode === 'hold' && text) {
      // Hold back the trailing grapheme cluster unless it is settled (and a dangling high surrogate with it).
      let cut = text.length;
      const lastUnit = text.charCodeAt(cut - 1);
      if (lastUnit >= 0xd800 && lastUnit <= 0xdbff) cut--;
      let last = '';
      for (const { segment } of SEGMENTER.segment(text.slice(0, cut))) last = segment;
      if (last && !isSettled(last)) cut -= last.length;
      held = text.slice(cut);
      text = text.slice(0, cut);
    }
    emitText();
    this.#buffer = held;
    return events;
  }

  #textEvents(text: string): ScanEvent[] {
    if (!this.#acceptEmojis || !/[\p{Extended_Pictographic}\p{Regional_Indicator}]/u.test(text)) return [{ type: 'text', text, raw: text }];
    const events: ScanEvent[] = [];
    let run = '';
    for (const { segment } of SEGMENTER.segment(text)) {
      const emoji = classifyEmoji(segment);
      if (!emoji) {
        run += segment;
        continue;
      }
      if (run) events.push({ type: 'text', text: run, raw: run });
      run = '';
      events.push({ type: 'emoji', emoji: segment, kind: emoji.kind, ...(emoji.locale ? { locale: emoji.locale } : {}), raw: segment });
    }
    if (run) events.push({ type: 'text', text: run, raw: run });
    return events;
  }
}
