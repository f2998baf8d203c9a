/**
 * One turn of a speech session: text goes in with {@link Turn.write} and {@link Turn.end}, audio comes out
 * of {@link Turn.audio}, {@link Turn.done} resolves with the turn's {@link TurnMetrics} on the isFinal chunk.
 *
 * Barge-in: {@link Turn.cancel} (or the turn's AbortSignal, or leaving a `for await` loop early) stops
 * delivery synchronously (nothing of this turn reaches the consumer once `cancel()` has been called), sends
 * `cancel`, and resolves once the server acknowledged it (isCancelled finish or `status: cancelled`) or
 * the acknowledgement timed out. The session stays usable.
 */
import { performance } from 'node:perf_hooks';
import { InvalidArgumentError, type VoxpipeError } from '../../errors.js';
import type { AudioChunkMessage, ClientAction, StreamConfig } from '../../protocol/speech.js';
import { toAudioChunk, type AudioChunk } from './audio-chunk.js';
import { AudioClock } from './audio-clock.js';
import { ChunkQueue } from './chunk-queue.js';
import { GenerationError } from './errors.js';
import { TurnRecorder, type TurnMetrics, type TurnOutcome } from './turn-metrics.js';

/** Frames a turn may hold while the previous turn's cancel awaits its acknowledgement. */
const MAX_HELD_FRAMES = 4096;

/** Where a turn is in its life. */
export type TurnState = 'open' | 'ended' | 'cancelling' | 'final' | 'cancelled' | 'failed';

/** What a turn needs from its session (implemented by the session, not by users). */
export interface TurnHost {
  readonly connectionId: string | undefined;
  /** The config in force, for audio duration accounting. */
  readonly config: StreamConfig;
  /** Sends a frame now or after a reconnect; throws when the session is closed. */
  send(frame: ClientAction): void;
  pauseReading(): void;
  resumeReading(): void;
  /** Called once when the turn reached a terminal state. */
  turnSettled(turn: Turn, metrics: TurnMetrics, error: VoxpipeError | undefined): void;
  generationFailed(error: GenerationError, turn: Turn): void;
}

/** Options of a turn. */
export interface TurnOptions {
  /** Aborting cancels the turn (barge-in), like {@link Turn.cancel}. */
  signal?: AbortSignal | undefined;
  /** Longest wait for the server's cancel acknowledgement. Default 2000 ms. */
  cancelTimeoutMs?: number | undefined;
  /** Chunks buffered for a slow consumer before the socket is paused. Default 256. */
  maxBufferedChunks?: number | undefined;
}

/** Result of {@link Turn.cancel}. */
export interface CancelResult {
  /** Whether the server acknowledged the cancel before the timeout (or nothing needed cancelling). */
  acknowledged: boolean;
  metrics: TurnMetrics;
}

/** A turn of a {@link SpeechSession}. Create it with `session.turn()`. */
export class Turn {
  /** Turn number within the session, from 1. */
  readonly id: number;
  /** Resolves with the turn's metrics when it ends (isFinal or cancel); rejects with the error that failed it. */
  readonly done: Promise<TurnMetrics>;
  /** Worker-level errors of generations of this turn (the turn continued). */
  readonly generationErrors: GenerationError[] = [];

  readonly #host: TurnHost;
  readonly #queue: ChunkQueue<AudioChunk>;
  readonly #recorder = new TurnRecorder();
  readonly #clock: AudioClock;
  readonly #cancelTimeoutMs: number;
  readonly #generations = new Set<string>();
  readonly #signal: AbortSignal | undefined;
  #state: TurnState = 'open';
  #held: ClientAction[] | undefined = [];
  #sentText = false;
  #written = false;
  #reading = false;
  #cancelling: Promise<CancelResult> | undefined;
  #ack: ((acknowledged: boolean) => void) | undefined;
  #resolve!: (metrics: TurnMetrics) => void;
  #quietResolve!: () => void;
  readonly #quiet = new Promise<void>((resolve) => {
    this.#quietResolve = resolve;
  });
  #reject!: (error: unknown) => void;

  /** @internal Created by the session. `active` false holds frames until {@link Turn.activate}. */
  constructor(id: number, host: TurnHost, options: TurnOptions, active: boolean) {
    this.id = id;
    this.#host = host;
    this.#clock = new AudioClock(host.config);
    this.#cancelTimeoutMs = options.cancelTimeoutMs ?? 2000;
    this.#queue = new ChunkQueue(options.maxBufferedChunks ?? 256, { onHigh: () => host.pauseReading(), onLow: () => host.resumeReading() });
    this.done = new Promise<TurnMetrics>((resolve, reject) => {
      this.#resolve = resolve;
      this.#reject = reject;
    });
    this.done.catch(() => {});
    if (active) this.#held = undefined;
    this.#signal = options.signal;
    if (options.signal?.aborted) queueMicrotask(() => void this.cancel());
    else options.signal?.addEventListener('abort', this.#onAbort, { once: true });
  }

  /** Current state. */
  get state(): TurnState {
    return this.#state;
  }

  /** Whether the turn reached a terminal state (final, cancelled or failed). */
  get settled(): boolean {
    return this.#state === 'final' || this.#state === 'cancelled' || this.#state === 'failed';
  }

  /** Whether any frame of this turn went over the socket. */
  get started(): boolean {
    return this.#sentText;
  }

  /** Generation ids seen in this turn. */
  get generationIds(): ReadonlySet<string> {
    return this.#generations;
  }

  /** Queues `text` for synthesis (`stream-text`); `ctx` is forwarded to the worker, never echoed. */
  write(text: string, options: { ctx?: string } = {}): void {
    if (typeof text !== 'string') throw new InvalidArgumentError('text must be a string');
    if (this.#state !== 'open') throw new InvalidArgumentError(`cannot write to a turn that is ${this.#state}`);
    if (text.length === 0 && options.ctx === undefined) return;
    this.#written = true;
    this.#sendFrame(options.ctx === undefined ? { action: 'stream-text', text } : { action: 'stream-text', text, ctx: options.ctx });
  }

  /** Closes the turn's input (`end-stream`); the isFinal chunk follows. A turn with no text completes at once. */
  end(): void {
    if (this.#state !== 'open') return;
    this.#state = 'ended';
    this.#recorder.endSent();
    if (!this.#written) {
      this.#held = undefined;
      this.#settle('final');
      this.#quietNow();
      return;
    }
    this.#sendFrame({ action: 'end-stream' });
  }

  /** Notes when the first token of this turn's text reached the pipeline (for `ttfaFromFirstTokenMs`). */
  markFirstToken(at: number = performance.now()): void {
    this.#recorder.firstToken(at);
  }

  /**
   * The turn's audio, in order. Single consumer. Ends after the isFinal chunk or on cancel; throws the error
   * that failed the turn (`connection_closed`, `session_error`, `protocol_error`). Leaving the loop early
   * cancels the turn.
   */
  audio(): AsyncIterable<AudioChunk> {
    if (this.#reading) throw new InvalidArgumentError('audio() can be read only once per turn');
    this.#reading = true;
    const iterator: AsyncIterableIterator<AudioChunk> = {
      // Checked again at hand-over: a chunk already resolved to the consumer is dropped if cancel() came first.
      next: () => this.#queue.next().then((result) => (result.done || !this.#cancelling ? result : { value: undefined, done: true })),
      return: async () => {
        if (!this.settled) await this.cancel();
        return { value: undefined, done: true };
      },
      [Symbol.asyncIterator]: () => iterator,
    };
    return iterator;
  }

  /** Barge-in: stops delivery now, sends `cancel`, resolves once acknowledged or after the timeout. */
  cancel(): Promise<CancelResult> {
    if (this.#cancelling) return this.#cancelling;
    if (this.settled) return this.done.then((metrics) => ({ acknowledged: true, metrics }), () => this.#failedCancel());
    this.#recorder.cancelStarted();
    this.#state = 'cancelling';
    this.#queue.clear();
    this.#recorder.silenced();
    this.#cancelling = this.#drain().then((acknowledged) => {
      this.#settle('cancelled');
      return this.done.then((metrics) => ({ acknowledged, metrics }));
    });
    return this.#cancelling;
  }

  /** @internal Resolves once no more server traffic of this turn is expected (final, or cancel acknowledged/timed out). */
  get quiet(): Promise<void> {
    return this.#quiet;
  }

  /** @internal The session lets a held turn send once the previous turn settled. */
  activate(): void {
    const held = this.#held;
    this.#held = undefined;
    if (held) for (const frame of held) this.#sendFrame(frame);
  }

  /** @internal Whether a chunk arriving now can belong to this turn (text was sent). */
  get accepting(): boolean {
    return this.#sentText && (this.#state === 'open' || this.#state === 'ended');
  }

  /** @internal A chunk or generation finish for this turn (or a stale one while cancelling). */
  handleChunk(message: AudioChunkMessage, receivedAt: number): void {
    if (this.#ack) {
      if (message.isCancelled || message.isFinal) this.#ack(true);
      else this.#recorder.staleDropped();
      return;
    }
    // A late isCancelled notice of a previous turn's other generations carries no audio: never ours.
    if (!this.accepting || message.isCancelled) return;
    this.#generations.add(message.generationId);
    let chunk: AudioChunk;
    try {
      chunk = toAudioChunk(this.id, message, receivedAt);
    } catch (error) {
      this.fail(error as VoxpipeError, true);
      return;
    }
    this.#recorder.chunk(message.generationId, chunk.data.length, receivedAt);
    this.#clock.add(chunk.data);
    this.#queue.push(chunk);
    if (chunk.isFinal) {
      this.#recorder.final(receivedAt);
      this.#settle('final');
      this.#quietNow();
    }
  }

  /** @internal `status: cancelled` from the server. */
  handleCancelledStatus(): void {
    this.#ack?.(true);
  }

  /**
   * @internal The socket dropped. A turn whose text went out fails with `error` (the server lost it); a
   * cancel in progress completes unacknowledged; a turn that sent nothing yet is unaffected.
   */
  connectionLost(error: VoxpipeError, sessionClosed: boolean): void {
    if (this.#ack) this.#ack(false);
    else if ((this.#sentText || sessionClosed) && !this.settled) this.fail(error);
  }

  /** @internal Whether a cancel (or a failure's cleanup cancel) awaits the server's acknowledgement. */
  get draining(): boolean {
    return this.#ack !== undefined;
  }

  /** @internal A worker-level error of one of this turn's generations. */
  handleGenerationError(generationId: string, message: string): void {
    if (!this.accepting) return;
    this.#generations.add(generationId);
    const error = new GenerationError(generationId, message, { body: { generationId, error: message } });
    this.generationErrors.push(error);
    this.#recorder.generationError(generationId);
    this.#host.generationFailed(error, this);
  }

  /**
   * @internal Fails the turn: the consumer reads what was already received, then the iterator throws
   * `error`. With `cancelServer`, a `cancel` is sent so no stale audio of this turn follows.
   */
  fail(error: VoxpipeError, cancelServer = false): void {
    if (this.settled) return;
    this.#queue.fail(error);
    this.#finish('failed', error);
    if (cancelServer) void this.#drain();
    else this.#quietNow();
  }

  #onAbort = (): void => {
    void this.cancel();
  };

  #sendFrame(frame: ClientAction): void {
    if (this.#held) {
      if (this.#held.length >= MAX_HELD_FRAMES) throw new InvalidArgumentError(`more than ${MAX_HELD_FRAMES} frames written while the previous turn's cancel is pending`);
      this.#held.push(frame);
      return;
    }
    this.#host.send(frame);
    if (frame.action === 'stream-text') {
      this.#recorder.textSent();
      this.#sentText = true;
    }
  }

  /** Sends `cancel` (when text went out) and waits for the acknowledgement; stale chunks meanwhile are counted and dropped. */
  #drain(): Promise<boolean> {
    this.#held = undefined;
    if (!this.#sentText) {
      this.#quietNow();
      return Promise.resolve(true);
    }
    return new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => this.#ack?.(false), this.#cancelTimeoutMs);
      this.#ack = (acknowledged) => {
        clearTimeout(timer);
        this.#ack = undefined;
        if (acknowledged) this.#recorder.cancelAcknowledged();
        this.#quietNow();
        resolve(acknowledged);
      };
      try {
        this.#host.send({ action: 'cancel' });
      } catch {
        this.#ack(false);
      }
    });
  }

  #quietNow(): void {
    this.#quietResolve();
  }

  #settle(outcome: Exclude<TurnOutcome, 'failed'>): void {
    if (this.settled) return;
    this.#queue.end();
    this.#finish(outcome, undefined);
  }

  #finish(outcome: TurnOutcome, error: VoxpipeError | undefined): void {
    this.#state = outcome;
    this.#signal?.removeEventListener('abort', this.#onAbort);
    const metrics = this.#recorder.finish(this.id, this.#host.connectionId, outcome, this.#clock.ms);
    if (error) this.#reject(error);
    else this.#resolve(metrics);
    this.#host.turnSettled(this, metrics, error);
  }

  #failedCancel(): Promise<CancelResult> {
    return Promise.resolve({ acknowledged: true, metrics: this.#recorder.finish(this.id, this.#host.connectionId, 'failed', this.#clock.ms) });
  }
}
