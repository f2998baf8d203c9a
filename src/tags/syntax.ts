/**
 * Syntax of the inline tags, matched at one position of a buffer.
 *
 * - Config tag: `<config` (any case) followed by whitespace, `/` or `>`, then attributes up to the first `>`
 *   (no `<` or `>` inside). Attributes `locale`, `voicePromptId`, `targetGender` (names in any case, any
 *   order, values in double quotes, single quotes or bare, whitespace around `=` allowed; values trimmed;
 *   empty values and other attributes ignored; the last repeat wins). `<config>` and `<config/>` are config
 *   tags that change nothing.
 * - Closing tag: `</config>` (any case, whitespace allowed after `/` and before `>`).
 * - Emotion tag: `[` name `]` where the name is made of letters, marks, digits, spaces, tabs, `_` and `-`.
 *   Any other character before `]` (`,`, `.`, `(`, `<`, `[`, a line break, ...) means the `[` is plain text —
 *   so `[0, 1)`, `a[i+1]` or a `[` ending a line are released at once instead of waiting for a `]`.
 * - Anything else starting with `<` or `[` is plain text.
 */

/** Attributes a config tag may set. */
export interface ConfigTagAttributes {
  locale?: string;
  voicePromptId?: string;
  targetGender?: string;
}

/** A tag recognized at a position; `end` is the index just after it. */
export type TagMatch =
  | { type: 'config'; end: number; attributes: ConfigTagAttributes }
  | { type: 'close'; end: number }
  | { type: 'bracket'; end: number; name: string };

const OPEN = /<config(?=[\s/>])([^<>]*)>/iy;
const OPEN_PREFIX = /<(?:c(?:o(?:n(?:f(?:i(?:g(?:[\s/][^<>]*)?)?)?)?)?)?)?$/iy;
const CLOSE = /<\/\s*config\s*>/iy;
const CLOSE_PREFIX = /<\/\s*(?:c(?:o(?:n(?:f(?:i(?:g\s*)?)?)?)?)?)?$/iy;
const BRACKET = /\[([\p{L}\p{M}\p{N}\t \u00A0_-]*)\]/uy;
const BRACKET_PREFIX = /\[[\p{L}\p{M}\p{N}\t \u00A0_-]*$/uy;
const ATTRIBUTE = /([A-Za-z_][\w-]*)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'/]+))/g;
const KNOWN_ATTRIBUTES: Readonly<Record<string, keyof ConfigTagAttributes>> = {
  locale: 'locale',
  voicepromptid: 'voicePromptId',
  targetgender: 'targetGender',
};

/** `source` starting at `at` matches `pattern` (a sticky regex). */
function stickyExec(pattern: RegExp, source: string, at: number): RegExpExecArray | null {
  pattern.lastIndex = at;
  return pattern.exec(source);
}

/** An emotion name as `[name]` tags match it: trimmed and lowercased. */
export function normalizeEmotionName(name: string): string {
  return name.trim().toLowerCase();
}

/** Parses the attribute text of a config tag. */
export function parseConfigAttributes(source: string): ConfigTagAttributes {
  const out: ConfigTagAttributes = {};
  for (const m of source.matchAll(ATTRIBUTE)) {
    const key = KNOWN_ATTRIBUTES[(m[1] ?? '').toLowerCase()];
    const value = (m[2] ?? m[3] ?? m[4] ?? '').trim();
    if (key && value) out[key] = value;
  }
  return out;
}

/** Longest tags, in UTF-16 code units, delimiters included. */
export interface TagLimits {
  /** Config and closing tags. */
  angle: number;
  /** `[name]` tags. */
  bracket: number;
}

/**
 * The tag starting at `buffer[at]` (a `<` or `[`), `'partial'` when the buffer ends inside what may still
 * become a tag, or undefined when it is plain text. Tags (and partial tags) longer than their limit are
 * plain text, so the result never depends on where the input was split.
 */
export function matchTag(buffer: string, at: number, limits: TagLimits): TagMatch | 'partial' | undefined {
  const open = buffer.length - at;
  if (buffer[at] === '[') {
    const m = stickyExec(BRACKET, buffer, at);
    if (m) return m[0].length <= limits.bracket ? { type: 'bracket', end: at + m[0].length, name: normalizeEmotionName(m[1] ?? '') } : undefined;
    return open < limits.bracket && stickyExec(BRACKET_PREFIX, buffer, at) ? 'partial' : undefined;
  }
  const config = stickyExec(OPEN, buffer, at);
  if (config) return config[0].length <= limits.angle ? { type: 'config', end: at + config[0].length, attributes: parseConfigAttributes(config[1] ?? '') } : undefined;
  const close = stickyExec(CLOSE, buffer, at);
  if (close) return close[0].length <= limits.angle ? { type: 'close', end: at + close[0].length } : undefined;
  return open < limits.angle && (stickyExec(OPEN_PREFIX, buffer, at) || stickyExec(CLOSE_PREFIX, buffer, at)) ? 'partial' : undefined;
}
