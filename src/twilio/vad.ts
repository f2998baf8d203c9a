/**
 * A small energy voice-activity detector for 8 kHz telephony audio. It tracks an adaptive noise floor and
 * reports `speech-start` after `startMs` of frames above the floor by `thresholdDb` (and above an absolute
 * minimum), and `speech-end` after `endMs` of frames below it. Good enough for barge-in on phone lines; swap in
 * a model-based VAD for noisy environments.
 */

/** Options of {@link EnergyVad}. */
export interface EnergyVadOptions {
  /** dB above the noise floor that counts as speech. Default 12. */
  thresholdDb?: number;
  /** Absolute level (dBFS) below which nothing is speech. Default -45. */
  minSpeechDbfs?: number;
  /** Speech must last this long to start. Default 60 ms. */
  startMs?: number;
  /** Silence must last this long to end. Default 500 ms. */
  endMs?: number;
}

/** What {@link EnergyVad.push} reports for a frame. */
export type VadEvent = 'speech-start' | 'speech-end' | undefined;

/** Stateful per-call VAD over PCM frames. */
export class EnergyVad {
  readonly #thresholdDb: number;
  readonly #minDbfs: number;
  readonly #startMs: number;
  readonly #endMs: number;
  #floorDb = -60;
  #aboveMs = 0;
  #belowMs = 0;
  #speaking = false;

  constructor(options: EnergyVadOptions = {}) {
    this.#thresholdDb = options.thresholdDb ?? 12;
    this.#minDbfs = options.minSpeechDbfs ?? -45;
    this.#startMs = options.startMs ?? 60;
    this.#endMs = options.endMs ?? 500;
  }

  /** Whether the caller is currently speaking. */
  get speaking(): boolean {
    return this.#speaking;
  }

  /** Current noise floor estimate in dBFS. */
  get noiseFloorDbfs(): number {
    return this.#floorDb;
  }

  /** Feeds one frame of PCM at `sampleRate`; returns a transition, if this frame caused one. */
  push(pcm: Int16Array, sampleRate = 8000): VadEvent {
    const ms = (pcm.length / sampleRate) * 1000;
    const level = levelDbfs(pcm);
    const isSpeech = level > this.#minDbfs && level > this.#floorDb + this.#thresholdDb;
    if (!isSpeech) {
      // Follow the floor down fast and up slowly, only from non-speech frames.
      const rate = level < this.#floorDb ? 0.3 : 0.02;
      this.#floorDb += (level - this.#floorDb) * rate;
    }
    if (isSpeech) {
      this.#aboveMs += ms;
      this.#belowMs = 0;
      if (!this.#speaking && this.#aboveMs >= this.#startMs) {
        this.#speaking = true;
        return 'speech-start';
      }
    } else {
      this.#belowMs += ms;
      this.#aboveMs = 0;
      if (this.#speaking && this.#belowMs >= this.#endMs) {
        this.#speaking = false;
        return 'speech-end';
      }
    }
    return undefined;
  }

  /** Forgets speech state (keeps the noise floor). */
  reset(): void {
    this.#aboveMs = 0;
    this.#belowMs = 0;
    this.#speaking = false;
  }
}

/** RMS level of a PCM frame in dBFS (-100 for digital silence). */
export function levelDbfs(pcm: Int16Array): number {
  if (pcm.length === 0) return -100;
  let sum = 0;
  for (let i = 0; i < pcm.length; i++) {
    const s = pcm[i] ?? 0;
    sum += s * s;
  }
  const rms = Math.sqrt(sum / pcm.length) / 32768;
  return rms > 0 ? Math.max(-100, 20 * Math.log10(rms)) : -100;
}
