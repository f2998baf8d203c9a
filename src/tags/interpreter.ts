/**
 * Applies the meaning of scanned tags: which locale, voice, gender and emotion each piece of text is
 * spoken with. The server uses it to synthesize; the client uses it to report what will be heard.
 *
 * Rules (spec, "Inline tags"):
 * - A config tag updates locale / voicePromptId / targetGender for the text after it (attributes it does not
 *   carry keep their value). A voicePromptId different from the current one is a new base voice, so an active
 *   emotion ends; repeating the current voice keeps it. `</config>` changes nothing (it does not restore the
 *   previous config).
 * - `[default]` / `[normal]` return to the base voice (even if an emotion set had an emotion of that name);
 *   another `[name]` that the base voice's emotion set knows switches to that emotion (the base voice is
 *   unchanged, so `[default]` returns to it); an unknown `[name]` is spoken as written, brackets included.
 * - With emoji accepted: a flag with a known locale and a globe switch the locale (an unknown flag is spoken
 *   as text), the neutral face returns to the base voice, an emoji bound to one of the base voice's emotions
 *   switches to it (bindings compare without presentation selectors, see `emojiKey`), any other emoji is
 *   text. Without `acceptEmojis` the scanner emits no emoji events at all.
 */
import { emojiKey } from './emoji.js';
import type { ScanEvent } from './scanner.js';
import { normalizeEmotionName } from './syntax.js';

/** How a piece of text is spoken. `emotion` is the active emotion's name, undefined for the base voice. */
export interface VoiceState {
  locale: string | undefined;
  voicePromptId: string | undefined;
  targetGender: string | undefined;
  emotion: string | undefined;
}

/** An emotion of a voice's emotion set. */
export interface CatalogEmotion {
  name: string;
  voicePromptId?: string;
}

/** Looks up the emotion set of a base voice. */
export interface EmotionCatalog {
  /** The base voice's emotion called `name` (already trimmed and lowercased), if any. */
  emotion(voicePromptId: string | undefined, name: string): CatalogEmotion | undefined;
  /** The base voice's emotion bound to `emoji`, if any. */
  emotionForEmoji(voicePromptId: string | undefined, emoji: string): CatalogEmotion | undefined;
}

/** Text and the state it is spoken with. */
export interface SpokenSegment {
  text: string;
  state: VoiceState;
}

const RESET_NAMES = new Set(['default', 'normal']);

/**
 * A catalog for clients that do not know the service's emotion sets: every name in `names` is an emotion of
 * every voice, and `emoji` binds emoji to those names.
 */
export function openEmotionCatalog(names: readonly string[], emoji: Readonly<Record<string, string>> = {}): EmotionCatalog {
  const known = new Set(names.map(normalizeEmotionName));
  const bound = new Map<string, string>();
  for (const [e, name] of Object.entries(emoji)) if (known.has(normalizeEmotionName(name))) bound.set(emojiKey(e), normalizeEmotionName(name));
  return {
    emotion: (_voice, name) => (known.has(name) ? { name } : undefined),
    emotionForEmoji: (_voice, e) => {
      const name = bound.get(emojiKey(e));
      return name ? { name } : undefined;
    },
  };
}

/** Turns scan events into spoken segments, carrying the voice state across calls. */
export class TagInterpreter {
  #state: VoiceState;
  readonly #catalog: EmotionCatalog;

  constructor(initial: VoiceState, catalog: EmotionCatalog) {
    this.#state = { ...initial };
    this.#catalog = catalog;
  }

  /** The state the next text will be spoken with. */
  get state(): VoiceState {
    return { ...this.#state };
  }

  /** Applies a new `stream-config` base (e.g. re-sent mid-session); a new voice ends the active emotion. */
  setBase(update: Partial<VoiceState>): void {
    const voiceChanged = update.voicePromptId !== undefined && update.voicePromptId !== this.#state.voicePromptId;
    this.#state = { ...this.#state, ...update, ...(voiceChanged && update.emotion === undefined ? { emotion: undefined } : {}) };
  }

  /** Applies `events` in order; consecutive text with the same state is merged. */
  apply(events: readonly ScanEvent[]): SpokenSegment[] {
    const out: SpokenSegment[] = [];
    for (const e of events) {
      switch (e.type) {
        case 'text':
          this.#say(out, e.text);
          break;
        case 'config': {
          const { locale, voicePromptId, targetGender } = e.attributes;
          this.setBase({
            ...(locale !== undefined ? { locale } : {}),
            ...(voicePromptId !== undefined ? { voicePromptId } : {}),
            ...(targetGender !== undefined ? { targetGender } : {}),
          });
          break;
        }
        case 'bracket':
          if (RESET_NAMES.has(e.name)) this.#state.emotion = undefined;
          else this.#emotionOrText(out, this.#catalog.emotion(this.#state.voicePromptId, e.name), e.raw);
          break;
        case 'emoji':
          if ((e.kind === 'flag' || e.kind === 'globe') && e.locale) this.#state.locale = e.locale;
          else if (e.kind === 'neutral') this.#state.emotion = undefined;
          else this.#emotionOrText(out, e.kind === 'other' ? this.#catalog.emotionForEmoji(this.#state.voicePromptId, e.emoji) : undefined, e.raw);
          break;
      }
    }
    return out;
  }

  /** Switches to `emotion` if the catalog found one, otherwise speaks the tag as written. */
  #emotionOrText(out: SpokenSegment[], emotion: CatalogEmotion | undefined, raw: string): void {
    if (emotion) this.#state.emotion = emotion.name;
    else this.#say(out, raw);
  }

  /** Appends `text` spoken with the current state, merged into the last segment when the state is the same. */
  #say(out: SpokenSegment[], text: string): void {
    if (!text) return;
    const last = out[out.length - 1];
    if (last && sameState(last.state, this.#state)) last.text += text;
    else out.push({ text, state: { ...this.#state } });
  }
}

function sameState(a: VoiceState, b: VoiceState): boolean {
  return a.locale === b.locale && a.voicePromptId === b.voicePromptId && a.targetGender === b.targetGender && a.emotion === b.emotion;
}
