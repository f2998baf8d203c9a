/**
 * Turns text pieces into `stream-text` frames. Pure and clock-free: the caller passes times in and asks
 * for frames; {@link speak} drives it with real timers.
 *
 * Policy:
 * 1. Text only leaves once the tag scanner released it, so a frame never splits an inline tag
 *    (`<config …/>`, `[emotion]`, emoji) or a grapheme cluster.
 * 2. The first text of a turn leaves at once (the service batches with its own firstAudioTimeout).
 * 3. Later text leaves at the last clause boundary as soon as one is seen; otherwise, `windowMs` after it
 *    became ready, at the last word boundary; text with no boundary at all leaves after `maxHoldMs`.
 * 4. {@link FrameCoalescer.finish} flushes everything, held-back tag text included.
 *
 * Each frame reports the spoken segments it contains and which locale/voice/emotion each is spoken with,
 * from the tag interpreter.
 */
import { TagInterpreter, TagScanner, type EmotionCatalog, type ScanEvent, type SpokenSegment, type VoiceState } from '../tags/index.js';
import { endsClause, lastClauseCut, lastWordCut } from './boundaries.js';

/** One `stream-text` frame and what it will sound like. */
export interface SpeakFrame {
  /** Frame number within the stream, from 0. */
  index: number;
  /** Exact text to send (tags included, as written). */
  text: string;
  /** Spoken pieces of `text` with the voice state each is spoken with (tags resolved, markup removed). */
  segments: SpokenSegment[];
}

/** Timing knobs of the coalescer. */
export interface CoalescerOptions {
  /** How long later text may wait for a word boundary. Default 30 ms. */
  windowMs?: number | undefined;
  /** Longest any ready text is held (a long word with no boundary). Default 120 ms. */
  maxHoldMs?: number | undefined;
  /** Voice state in force at the start (from the session's stream-config). */
  initialState?: VoiceState | undefined;
  /** Whether emoji act as tags (the session's `acceptEmojis`). Default false. */
  acceptEmojis?: boolean | undefined;
  /**
   * The voice's emotion set, for reporting: `[name]` tags it knows switch the emotion, others are spoken
   * literally. Default: every bracketed name counts as an emotion (the client does not know the service's
   * sets); pass `openEmotionCatalog(names)` for exact reports.
   */
  emotions?: EmotionCatalog | undefined;
}

const NO_STATE: VoiceState = { locale: undefined, voicePromptId: undefined, targetGender: undefined, emotion: undefined };
const ANY_EMOTION: EmotionCatalog = { emotion: (_voice, name) => ({ name }), emotionForEmoji: () => undefined };

/** Incremental text → frame coalescer (see the module doc for the policy). */
export class FrameCoalescer {
  readonly #scanner: TagScanner;
  readonly #interpreter: TagInterpreter;
  readonly #windowMs: number;
  readonly #maxHoldMs: number;
  #events: ScanEvent[] = [];
  #ready = '';
  #frames = 0;
  #readySince: number | undefined;
  #deadline: number | undefined;

  constructor(options: CoalescerOptions = {}) {
    this.#windowMs = options.windowMs ?? 30;
    this.#maxHoldMs = Math.max(this.#windowMs, options.maxHoldMs ?? 120);
    this.#scanner = new TagScanner({ acceptEmojis: options.acceptEmojis ?? false });
    this.#interpreter = new TagInterpreter(options.initialState ?? NO_STATE, options.emotions ?? ANY_EMOTION);
  }

  /** When {@link FrameCoalescer.due} should next be called (a `performance.now()` time), or undefined. */
  get deadline(): number | undefined {
    return this.#deadline;
  }

  /** Text released by the scanner but not yet framed. */
  get pendingText(): string {
    return this.#ready + this.#scanner.pending;
  }

  /** Feeds one piece of text received at `at`; returns the frames to send now. */
  push(text: string, at: number): SpeakFrame[] {
    this.#add(this.#scanner.push(text), at);
    if (this.#ready.length === 0) return [];
    if (this.#frames === 0) return [this.#take(this.#ready.length, at)];
    const cut = lastClauseCut(this.#ready, this.#outsideTags);
    if (cut > 0) return [this.#take(cut, at)];
    this.#deadline ??= at + this.#windowMs;
    return [];
  }

  /**
   * Called at or after {@link FrameCoalescer.deadline}: frames text up to the last word boundary. A trailing
   * grapheme the scanner holds back stays held until more text or the end (it may still be continued, e.g.
   * by a ZWJ or a combining mark, however long the pause).
   */
  due(at: number): SpeakFrame[] {
    if (this.#ready.length === 0) {
      this.#deadline = undefined;
      return [];
    }
    const cut = endsClause(this.#ready) || this.#endsWithTag() ? this.#ready.length : lastWordCut(this.#ready, this.#outsideTags);
    if (cut > 0) return [this.#take(cut, at)];
    const since = this.#readySince ?? at;
    if (at - since >= this.#maxHoldMs) return [this.#take(this.#ready.length, at)];
    this.#deadline = Math.min(at + this.#windowMs, since + this.#maxHoldMs);
    return [];
  }

  /** End of input: frames everything left, text the scanner was holding back included. */
  finish(at: number): SpeakFrame[] {
    this.#add(this.#scanner.flush(), at);
    this.#deadline = undefined;
    return this.#ready.length > 0 ? [this.#take(this.#ready.length, at)] : [];
  }

  #add(events: ScanEvent[], at: number): void {
    for (const event of events) {
      if (event.raw.length === 0) continue;
      this.#events.push(event);
      this.#ready += event.raw;
    }
    if (this.#ready.length > 0) this.#readySince ??= at;
  }

  /** A cut may not fall inside a tag's raw text (a stripped `</config>` included). */
  #outsideTags = (at: number): boolean => {
    let offset = 0;
    for (const event of this.#events) {
      const end = offset + event.raw.length;
      if (at < end) return at === offset || (event.type === 'text' && event.text === event.raw);
      offset = end;
    }
    return true;
  };

  #endsWithTag(): boolean {
    const last = this.#events[this.#events.length - 1];
    return last !== undefined && last.type !== 'text';
  }

  /** Takes the first `length` characters of the ready text as a frame (splitting a text event if needed). */
  #take(length: number, at: number): SpeakFrame {
    const taken: ScanEvent[] = [];
    let remaining = length;
    while (remaining > 0) {
      const event = this.#events[0];
      if (!event) break;
      if (event.raw.length <= remaining) {
        taken.push(event);
        this.#events.shift();
        remaining -= event.raw.length;
        continue;
      }
      const [head, tail] = splitTextEvent(event, remaining);
      taken.push(head);
      this.#events[0] = tail;
      remaining = 0;
    }
    const text = this.#ready.slice(0, length);
    this.#ready = this.#ready.slice(length);
    this.#readySince = this.#ready.length > 0 ? at : undefined;
    this.#deadline = this.#ready.length > 0 ? at + this.#windowMs : undefined;
    return { index: this.#frames++, text, segments: this.#interpreter.apply(taken) };
  }
}

/** Splits a plain-text event at `at` (cuts are only ever chosen inside text events). */
function splitTextEvent(event: ScanEvent, at: number): [ScanEvent, ScanEvent] {
  if (event.type !== 'text' || event.text !== event.raw) throw new Error('a frame cut fell inside a tag');
  return [
    { ...event, raw: event.raw.slice(0, at), text: event.text.slice(0, at) },
    { ...event, raw: event.raw.slice(at), text: event.text.slice(at) },
  ];
}
