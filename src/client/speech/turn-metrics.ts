/**
 * Per-turn latency metrics: a plain record with units in the field names, built by {@link TurnRecorder}
 * from timestamps the turn notes as it goes, and published on `node:diagnostics_channel`.
 *
 * Channels: {@link TURN_CHANNEL} (`voxpipe:turn`) carries one {@link TurnMetrics} per finished turn;
 * {@link SESSION_CHANNEL} (`voxpipe:session`) carries {@link SessionLifecycleEvent}s.
 */
import { channel } from 'node:diagnostics_channel';
import { performance } from 'node:perf_hooks';

/** `node:diagnostics_channel` name carrying a {@link TurnMetrics} for every finished turn. */
export const TURN_CHANNEL = 'voxpipe:turn';
/** `node:diagnostics_channel` name carrying {@link SessionLifecycleEvent}s. */
export const SESSION_CHANNEL = 'voxpipe:session';

/** How a turn ended. */
export type TurnOutcome = 'final' | 'cancelled' | 'failed';

/** What one turn measured. Durations are milliseconds from `performance.now()`; undefined when the event never happened. */
export interface TurnMetrics {
  /** Turn number within its session, from 1. */
  turnId: number;
  /** Server connection id (from the welcome), when the server sent one. */
  connectionId: string | undefined;
  outcome: TurnOutcome;
  /** First `stream-text` sent → first audio chunk received. */
  ttfaFromFirstTextMs: number | undefined;
  /** First token seen by the pipeline → first audio chunk received (set when a pipeline drove the turn). */
  ttfaFromFirstTokenMs: number | undefined;
  /** `end-stream` sent → the isFinal chunk. */
  endToFinalMs: number | undefined;
  /** Longest gap between consecutive chunks received. */
  maxChunkGapMs: number | undefined;
  /** Mean gap between consecutive chunks received. */
  avgChunkGapMs: number | undefined;
  /** Chunks delivered to the consumer (closing chunks without audio included). */
  chunkCount: number;
  /** Distinct generations seen. */
  generationCount: number;
  /** Generations stopped by a worker-level error. */
  generationErrorCount: number;
  /** Decoded audio bytes received (headers included). */
  audioBytes: number;
  /** Playable audio received, from the session's format (PCM sizes, WAV headers, MP3 frames, Ogg Opus granules). */
  audioMs: number;
  /** First `stream-text` sent → last chunk received (or the end of the turn when none arrived). */
  wallMs: number;
  /** `audioMs / wallMs`: above 1 the service produced audio faster than real time. */
  realtimeFactor: number | undefined;
  /** `cancel()` called → delivery stopped (no chunk of the turn reaches the consumer afterwards). */
  timeToSilenceMs: number | undefined;
  /** `cancel()` called → the server's cancel acknowledgement. */
  cancelAckMs: number | undefined;
  /** Chunks of the turn that arrived after cancel and were dropped. */
  staleChunksDropped: number;
}

/** Lifecycle notices of a session, published on {@link SESSION_CHANNEL} and as session events. */
export type SessionLifecycleEvent =
  | { type: 'connected'; connectionId: string | undefined; url: string }
  | { type: 'reconnecting'; attempt: number; delayMs: number; error: Error }
  | { type: 'disconnected'; code: number; reason: string }
  | { type: 'closed' };

const turnChannel = channel(TURN_CHANNEL);
const sessionChannel = channel(SESSION_CHANNEL);

/** Publishes finished-turn metrics on {@link TURN_CHANNEL} (no cost without subscribers). */
export function publishTurnMetrics(metrics: TurnMetrics): void {
  if (turnChannel.hasSubscribers) turnChannel.publish(metrics);
}

/** Publishes a lifecycle event on {@link SESSION_CHANNEL} (no cost without subscribers). */
export function publishSessionEvent(event: SessionLifecycleEvent): void {
  if (sessionChannel.hasSubscribers) sessionChannel.publish(event);
}

/** Collects a turn's timestamps and produces its {@link TurnMetrics}. */
export class TurnRecorder {
  #firstTextAt: number | undefined;
  #firstTokenAt: number | undefined;
  #firstChunkAt: number | undefined;
  #lastChunkAt: number | undefined;
  #endAt: number | undefined;
  #finalAt: number | undefined;
  #cancelAt: number | undefined;
  #silentAt: number | undefined;
  #cancelAckAt: number | undefined;
  #gapMax = 0;
  #gapSum = 0;
  #gaps = 0;
  #chunks = 0;
  #bytes = 0;
  #generations = new Set<string>();
  #generationErrors = 0;
  #stale = 0;
  readonly #startedAt = performance.now();

  /** Notes the first `stream-text` (later calls are ignored). */
  textSent(at = performance.now()): void {
    this.#firstTextAt ??= at;
  }
  /** Notes when the first token reached the pipeline (earliest wins). */
  firstToken(at: number): void {
    if (this.#firstTokenAt === undefined || at < this.#firstTokenAt) this.#firstTokenAt = at;
  }
  /** Notes a chunk received for this turn. */
  chunk(generationId: string, bytes: number, at = performance.now()): void {
    if (this.#lastChunkAt !== undefined) {
      const gap = at - this.#lastChunkAt;
      this.#gapSum += gap;
      this.#gaps++;
      if (gap > this.#gapMax) this.#gapMax = gap;
    }
    this.#firstChunkAt ??= at;
    this.#lastChunkAt = at;
    this.#chunks++;
    this.#bytes += bytes;
    this.#generations.add(generationId);
  }
  /** Notes a generation stopped by a worker error. */
  generationError(generationId: string): void {
    this.#generations.add(generationId);
    this.#generationErrors++;
  }
  /** Notes `end-stream` sent. */
  endSent(at = performance.now()): void {
    this.#endAt ??= at;
  }
  /** Notes the isFinal chunk. */
  final(at = performance.now()): void {
    this.#finalAt ??= at;
  }
  /** Notes the start of `cancel()`. */
  cancelStarted(at = performance.now()): void {
    this.#cancelAt ??= at;
  }
  /** Notes the moment delivery stopped after cancel. */
  silenced(at = performance.now()): void {
    this.#silentAt ??= at;
  }
  /** Notes the server's cancel acknowledgement. */
  cancelAcknowledged(at = performance.now()): void {
    this.#cancelAckAt ??= at;
  }
  /** Counts a chunk dropped after cancel. */
  staleDropped(): void {
    this.#stale++;
  }

  /** The record for a turn that ended with `outcome`. */
  finish(turnId: number, connectionId: string | undefined, outcome: TurnOutcome, audioMs: number, at = performance.now()): TurnMetrics {
    const since = (from: number | undefined, to: number | undefined): number | undefined => (from === undefined || to === undefined ? undefined : to - from);
    const wallMs = (this.#lastChunkAt ?? at) - (this.#firstTextAt ?? this.#startedAt);
    return {
      turnId,
      connectionId,
      outcome,
      ttfaFromFirstTextMs: since(this.#firstTextAt, this.#firstChunkAt),
      ttfaFromFirstTokenMs: since(this.#firstTokenAt, this.#firstChunkAt),
      endToFinalMs: since(this.#endAt, this.#finalAt),
      maxChunkGapMs: this.#gaps > 0 ? this.#gapMax : undefined,
      avgChunkGapMs: this.#gaps > 0 ? this.#gapSum / this.#gaps : undefined,
      chunkCount: this.#chunks,
      generationCount: this.#generations.size,
      generationErrorCount: this.#generationErrors,
      audioBytes: this.#bytes,
      audioMs,
      wallMs,
      realtimeFactor: wallMs > 0 ? audioMs / wallMs : undefined,
      timeToSilenceMs: since(this.#cancelAt, this.#silentAt),
      cancelAckMs: since(this.#cancelAt, this.#cancelAckAt),
      staleChunksDropped: this.#stale,
    };
  }
}
