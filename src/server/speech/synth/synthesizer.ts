/**
 * The synthesizer contract. Every engine produces 48 kHz mono 16-bit PCM, streamed in blocks as it is
 * produced; format conversion to what the client asked for happens after, in the audio encoders.
 */

/** Internal generation rate of every engine, fixed by the spec. */
export const SYNTH_SAMPLE_RATE = 48_000;

/** The voice a piece of text is spoken with. */
export interface VoiceProfile {
  /** Voice prompt id the profile was resolved from. */
  voicePromptId: string;
  /** Fundamental frequency of the voice in Hz. */
  pitchHz: number;
  gender: 'MALE' | 'FEMALE' | 'NON_BINARY';
  /** Default locale of the voice. */
  locale: string;
  /** Words per minute at rate scale 1. */
  wordsPerMinute: number;
  /** espeak-ng variant name (e.g. `m3`, `f2`). */
  espeakVariant: string;
}

/** Colouring applied on top of a voice by an emotion. */
export interface EmotionStyle {
  name: string;
  pitchScale: number;
  rateScale: number;
  gain: number;
}

/** One synthesis request: a segment of text with everything that decides how it sounds. */
export interface SynthesisRequest {
  text: string;
  /** BCP-47 locale the text is spoken in. */
  locale: string;
  voice: VoiceProfile;
  emotion?: EmotionStyle | undefined;
  /** Aborts generation; the iterator then ends (or throws an AbortError) promptly. */
  signal?: AbortSignal | undefined;
}

/** A speech engine. */
export interface Synthesizer {
  /** Engine name, e.g. `builtin` or `espeak-ng`. */
  readonly name: string;
  /** Yields 48 kHz mono PCM blocks in order as they are produced. */
  synthesize(request: SynthesisRequest): AsyncIterable<Int16Array>;
  /** Releases engine resources. */
  close?(): Promise<void> | void;
}
