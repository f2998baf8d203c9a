/**
 * Real-time pacing of outbound frames. Twilio plays what it receives and buffers the rest; sending far
 * ahead makes a barge-in `clear` throw away more audio and makes marks less precise, sending late makes the
 * caller hear gaps. The pacer keeps the audio sent between `leadMs - burstMs` and `leadMs` ahead of the
 * playback position it models (playback starts with the first frame and waits when the bridge ran dry).
 */
import { performance } from 'node:perf_hooks';
import { sleep } from '../client/http.js';

/** Options of {@link FramePacer}. */
export interface PacerOptions {
  /** Duration of one frame. Default 20 ms. */
  frameMs?: number;
  /** Most audio sent ahead of playback. Default 100 ms. */
  leadMs?: number;
  /** Frames are released in bursts of this much audio (fewer timers). Default 40 ms. */
  burstMs?: number;
  /** false sends as fast as audio arrives (tests, soak). Default true. */
  realtime?: boolean;
}

/** Models the caller's playback position for one stream and delays frames that would run too far ahead. */
export class FramePacer {
  readonly #frameMs: number;
  readonly #leadMs: number;
  readonly #burstMs: number;
  readonly #realtime: boolean;
  #startedAt: number | undefined;
  #sentMs = 0;

  constructor(options: PacerOptions = {}) {
    this.#frameMs = options.frameMs ?? 20;
    this.#leadMs = options.leadMs ?? 100;
    this.#burstMs = Math.min(options.burstMs ?? 40, this.#leadMs);
    this.#realtime = options.realtime ?? true;
  }

  /** Audio ms sent since the last {@link reset}. */
  get sentMs(): number {
    return this.#sentMs;
  }

  /** How far the audio sent is ahead of modelled playback (0 when nothing is queued at the caller). */
  get aheadMs(): number {
    if (this.#startedAt === undefined) return 0;
    return Math.max(0, this.#startedAt + this.#sentMs - performance.now());
  }

  /** Resolves when the next frame may go out; rejects with `AbortError` when `signal` aborts. */
  async ready(signal: AbortSignal): Promise<void> {
    const now = performance.now();
    // Playback (re)starts now when nothing was queued: a gap in our audio is a gap for the caller too.
    if (this.#startedAt === undefined || this.#startedAt + this.#sentMs < now) this.#startedAt = now - this.#sentMs;
    if (!this.#realtime) return;
    const ahead = this.#startedAt + this.#sentMs - now;
    if (ahead > this.#leadMs) await sleep(ahead - this.#leadMs + this.#burstMs, signal);
  }

  /** Notes one frame sent. */
  sent(): void {
    this.#sentMs += this.#frameMs;
  }

  /** Forgets the playback model (after a `clear`, or between turns). */
  reset(): void {
    this.#startedAt = undefined;
    this.#sentMs = 0;
  }
}
