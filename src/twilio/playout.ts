/**
 * Tracks what the caller actually heard. Each piece of bot text is sent as audio followed by a Twilio
 * `mark`; Twilio echoes the mark once that audio has played. After a barge-in `clear`, Twilio drops its
 * buffer and may still echo the pending marks: those are for audio nobody heard, and are ignored.
 */

/** One piece of text and its audio, as sent to Twilio. */
export interface PlayoutSegment {
  /** The mark name sent after this segment's audio. */
  mark: string;
  text: string;
  /** Audio duration of the segment in ms. */
  audioMs: number;
  /** Set once the caller heard it (mark echoed before any clear). */
  heard: boolean;
}

/** Heard/unheard text of a turn, e.g. to correct an LLM's conversation history after a barge-in. */
export interface PlayoutReport {
  heardText: string;
  unheardText: string;
  heardMs: number;
  segments: PlayoutSegment[];
}

/** Per-call ledger of sent segments and echoed marks. */
export class PlayoutTracker {
  #segments: PlayoutSegment[] = [];
  #next = 0;
  #epoch = 0;
  #ignored = 0;

  /** Registers a segment about to be sent; returns the mark name to send after its audio. */
  add(text: string, audioMs: number): string {
    const mark = `e${this.#epoch}-s${this.#next++}`;
    this.#segments.push({ mark, text, audioMs, heard: false });
    return mark;
  }

  /** Handles an echoed mark. Returns the segment when it counts as heard, undefined when it is stale or unknown. */
  onMark(name: string): PlayoutSegment | undefined {
    if (!name.startsWith(`e${this.#epoch}-`)) {
      this.#ignored++;
      return undefined;
    }
    const segment = this.#segments.find((s) => s.mark === name);
    if (!segment) return undefined;
    // Marks echo in order: everything before this mark has played too.
    for (const s of this.#segments) {
      s.heard = true;
      if (s === segment) break;
    }
    return segment;
  }

  /** Number of echoed marks ignored because they belonged to cleared audio. */
  get ignoredMarks(): number {
    return this.#ignored;
  }

  /** Whether audio is sent that has not been confirmed as played. */
  get pending(): boolean {
    return this.#segments.some((s) => !s.heard);
  }

  /** Closes the current turn (on barge-in `clear` or when it finished playing) and reports what was heard. */
  settle(): PlayoutReport {
    const segments = this.#segments;
    this.#segments = [];
    this.#epoch++;
    this.#next = 0;
    const heard = segments.filter((s) => s.heard);
    return {
      heardText: joinText(heard),
      unheardText: joinText(segments.filter((s) => !s.heard)),
      heardMs: heard.reduce((sum, s) => sum + s.audioMs, 0),
      segments,
    };
  }
}

function joinText(segments: PlayoutSegment[]): string {
  return segments.map((s) => s.text).join('').replace(/\s+/g, ' ').trim();
}
