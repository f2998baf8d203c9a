/**
 * Which words a piece of audio carries. The speech service does not say which characters each audio chunk
 * speaks, so the bridge spreads the turn's spoken text (tags removed, in the order it was written) over its
 * audio at a speaking rate in ms per character: a chunk of `ms` audio takes about `ms / msPerChar` further
 * characters, cut back to a word end, never past the text written so far. The turn's last piece takes
 * whatever is left, so a turn that played to the end is always fully "heard". The rate starts at
 * `initialMsPerChar` and is re-learned after every completed turn (its audio ms over its characters), so
 * after one full turn the estimate tracks the voice actually used. Error: about one word per piece, plus
 * the deviation of this turn's rate from the learned one (pauses at punctuation move it a little).
 */

/** Default speaking rate before any turn was measured (≈ 165 words per minute). */
export const DEFAULT_MS_PER_CHAR = 60;

/** Spreads one turn's text over its audio pieces. */
export class TextAttributor {
  #text = '';
  #cursor = 0;
  #owedMs = 0;
  #audioMs = 0;

  /** @param msPerChar speaking rate used to convert audio ms to characters */
  constructor(private readonly msPerChar: number = DEFAULT_MS_PER_CHAR) {}

  /** Appends spoken text as it is written to the turn. */
  write(text: string): void {
    this.#text += text;
  }

  /** All spoken text written so far. */
  get text(): string {
    return this.#text;
  }

  /** Audio ms attributed so far. */
  get audioMs(): number {
    return this.#audioMs;
  }

  /** The text carried by the next `audioMs` of audio; with `last`, everything not yet attributed. */
  take(audioMs: number, last = false): string {
    this.#audioMs += audioMs;
    if (last) return this.#rest();
    this.#owedMs += audioMs;
    const budget = Math.floor(this.#owedMs / this.msPerChar);
    if (budget <= 0) return '';
    let end = Math.min(this.#text.length, this.#cursor + budget);
    if (end < this.#text.length) {
      // Cut back to the end of a word: after the last whitespace inside the budget.
      let space = end;
      while (space >= this.#cursor && !/\s/.test(this.#text[space] ?? '')) space--;
      if (space < this.#cursor) return '';
      end = space + 1;
    }
    const piece = this.#text.slice(this.#cursor, end);
    this.#owedMs = Math.max(0, this.#owedMs - piece.length * this.msPerChar);
    this.#cursor = end;
    return piece;
  }

  #rest(): string {
    const piece = this.#text.slice(this.#cursor);
    this.#cursor = this.#text.length;
    this.#owedMs = 0;
    return piece;
  }
}

/** Learns the speaking rate of a call from its completed turns (exponential average, bounded to sane values). */
export class SpeakingRate {
  #msPerChar: number;

  constructor(initial: number = DEFAULT_MS_PER_CHAR) {
    this.#msPerChar = initial;
  }

  /** Current estimate in ms per character. */
  get msPerChar(): number {
    return this.#msPerChar;
  }

  /** Folds in a completed turn: `audioMs` of audio for `characters` of spoken text. */
  observe(audioMs: number, characters: number): void {
    if (characters < 8 || audioMs <= 0) return;
    const measured = Math.min(400, Math.max(15, audioMs / characters));
    this.#msPerChar = 0.5 * this.#msPerChar + 0.5 * measured;
  }
}
