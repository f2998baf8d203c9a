/**
 * {@link CaptionsFollower}: follows a live service's captions socket as an async iterable of cues. It reconnects
 * with backoff when the socket drops (or stays silent past `idleTimeoutMs`) and resumes without duplicates: cues
 * already delivered, or older than the last one delivered before the drop, are skipped when the server replays its
 * window. It ends when the playlist ends (close code 4000), on abort, or after `maxAttempts` failed reconnects; a
 * refused handshake (400/401/403/404) is not retried. Cue delay is arrival time against segment availability when the
 * server reports it, else relative to the fastest cue seen, and against program date-time when the playlist has it
 * (see {@link FollowedCue.delayMs}). {@link writeCaptions} writes cues as SRT or WebVTT.
 */
import type WebSocket from 'ws';
import { AbortError, ConnectionError, ProtocolError, VoxpipeError } from '../errors.js';
import { CueDeduper } from '../hls/cue-dedupe.js';
import { srtBlock, vttBlock, type VttCue } from '../hls/webvtt.js';
import { CAPTIONS_CLOSE_ENDED, captionsFrameSchema, type CaptionsFrame } from '../protocol/captions.js';
import { backoffMs, sleep } from './http.js';
import { resolveSocketUrl } from './speech/endpoint.js';
import { openSocket, type SocketAuth } from './speech/open-socket.js';

/** A delivered cue. `seq` counts from 1 over the follower's life (not per connection); times are media seconds. */
export interface FollowedCue extends VttCue {
  seq: number;
  /** `Date.now()` when the cue arrived. */
  receivedAt: number;
  /**
   * Cue delay in ms, per {@link delaySource}: `segment-availability` is `receivedAt − availableAt`, where the server's
   * cue frame says when the segment carrying the cue first appeared in the followed playlist (server clock; the
   * time spent fetching, parsing and sending; for segments already in the window when following began it counts from
   * then). `relative` (servers that do not send `availableAt`) is how much later than the fastest cue so far this cue
   * arrived on the media timeline: `(receivedAt − start·1000) − min over cues of (receivedAt − start·1000)`.
   */
  delayMs: number;
  delaySource: 'segment-availability' | 'relative';
  /**
   * `receivedAt − programDateTime` when the cue frame carries the `EXT-X-PROGRAM-DATE-TIME` of the cue's segment:
   * the delay behind the program's wall clock (includes the segment's own duration); undefined otherwise.
   */
  programDelayMs: number | undefined;
}

/** Options of {@link CaptionsFollower}. */
export interface CaptionsFollowerOptions {
  /** HTTP(S) base URL of the live API (`ws(s)` is derived). */
  baseUrl: string;
  apiKey?: string;
  /** How the key travels in the handshake. Default `header`. */
  auth?: SocketAuth;
  serviceId: number;
  /** BCP-47 language of the caption track. */
  lang: string;
  /** Explicit HLS WebVTT playlist (master or media) to follow instead of the service's own caption output. */
  playlistUrl?: string;
  signal?: AbortSignal;
  /** Failed reconnects in a row before giving up. Default 10. */
  maxAttempts?: number;
  /** Reconnect after this long without any frame (heartbeats included). Default 20 000 ms. */
  idleTimeoutMs?: number;
  /** Cues buffered before the socket is paused. Default 1000. */
  maxBufferedCues?: number;
  /** Every non-cue frame (hello, heartbeat, error). */
  onFrame?: (frame: Exclude<CaptionsFrame, { type: 'cue' }>) => void;
  /** Called before each reconnect attempt with its number and the reason. */
  onReconnect?: (attempt: number, reason: unknown) => void;
}

/** Counters of a follower. */
export interface CaptionsFollowerStats {
  cues: number;
  duplicatesDropped: number;
  reconnects: number;
  /** Cue delay (see {@link FollowedCue.delayMs}) over the last cues: median, 95th percentile and maximum, in ms. */
  delay: { p50: number; p95: number; max: number };
}

const REFUSED = new Set([400, 401, 403, 404]);
const DELAY_SAMPLES = 1024;

/** Follows a captions socket; iterate it once. */
export class CaptionsFollower implements AsyncIterable<FollowedCue> {
  readonly #options: CaptionsFollowerOptions;
  readonly #dedupe = new CueDeduper();
  readonly #delays: number[] = [];
  #lastStart = Number.NEGATIVE_INFINITY;
  #resumeFrom = Number.NEGATIVE_INFINITY;
  #bestLag = Number.POSITIVE_INFINITY;
  #seq = 0;
  #duplicates = 0;
  #reconnects = 0;
  #iterated = false;

  constructor(options: CaptionsFollowerOptions) {
    this.#options = options;
  }

  /** Counters so far. */
  stats(): CaptionsFollowerStats {
    const sorted = [...this.#delays].sort((a, b) => a - b);
    const at = (q: number): number => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
    return { cues: this.#seq, duplicatesDropped: this.#duplicates, reconnects: this.#reconnects, delay: { p50: at(0.5), p95: at(0.95), max: sorted.at(-1) ?? 0 } };
  }

  [Symbol.asyncIterator](): AsyncIterator<FollowedCue> {
    if (this.#iterated) throw new ProtocolError('a CaptionsFollower can be iterated once');
    this.#iterated = true;
    return this.#run();
  }

  async *#run(): AsyncGenerator<FollowedCue> {
    const o = this.#options;
    const url = resolveSocketUrl({ baseUrl: o.baseUrl }, `/live/services/${o.serviceId}/captions/ws`);
    url.searchParams.set('lang', o.lang);
    if (o.playlistUrl) url.searchParams.set('playlist_url', o.playlistUrl);
    let failures = 0;
    for (;;) {
      if (o.signal?.aborted) throw new AbortError();
      const connection = new Connection(o.maxBufferedCues ?? 1000);
      let ws: WebSocket;
      try {
        ws = await openSocket({ url, apiKey: o.apiKey, auth: o.auth, signal: o.signal, onMessage: (data) => connection.push(data) });
      } catch (error) {
        if (error instanceof VoxpipeError && (error.code === 'aborted' || (error.status !== undefined && REFUSED.has(error.status)))) throw error;
        if (++failures > (o.maxAttempts ?? 10)) throw error;
        o.onReconnect?.(failures, error);
        await sleep(backoffMs(failures - 1), o.signal);
        continue;
      }
      failures = 0;
      const onAbort = (): void => ws.terminate();
      o.signal?.addEventListener('abort', onAbort, { once: true });
      connection.attach(ws, o.idleTimeoutMs ?? 20_000);
      let closed: { code: number; reason: string };
      try {
        for (;;) {
          const next = await connection.next();
          if (next.kind === 'closed') {
            closed = next;
            break;
          }
          if (next.frame.type !== 'cue') o.onFrame?.(next.frame);
          else {
            const cue = this.#accept(next.frame);
            if (cue) yield cue;
          }
        }
      } finally {
        o.signal?.removeEventListener('abort', onAbort);
        connection.detach();
        ws.terminate();
      }
      if (o.signal?.aborted) throw new AbortError();
      if (closed.code === CAPTIONS_CLOSE_ENDED) return;
      this.#reconnects++;
      this.#resumeFrom = this.#lastStart;
      o.onReconnect?.(1, new ConnectionError('connection_closed', `captions socket closed (${closed.code})`, { retryable: true }));
      await sleep(backoffMs(0), o.signal);
    }
  }

  #accept(frame: Extract<CaptionsFrame, { type: 'cue' }>): FollowedCue | undefined {
    if (frame.start < this.#resumeFrom || !this.#dedupe.accept(frame)) {
      this.#duplicates++;
      return undefined;
    }
    this.#lastStart = Math.max(this.#lastStart, frame.start);
    const receivedAt = Date.now();
    const lag = receivedAt - frame.start * 1000;
    this.#bestLag = Math.min(this.#bestLag, lag);
    const fromAvailability = frame.availableAt !== undefined;
    const delayMs = Math.round(fromAvailability ? receivedAt - (frame.availableAt as number) : lag - this.#bestLag);
    this.#delays.push(delayMs);
    if (this.#delays.length > DELAY_SAMPLES) this.#delays.shift();
    const programDelayMs = frame.programDateTime === undefined ? undefined : Math.round(receivedAt - frame.programDateTime);
    const delaySource = fromAvailability ? 'segment-availability' : 'relative';
    return { seq: ++this.#seq, start: frame.start, end: frame.end, text: frame.text, receivedAt, delayMs, delaySource, programDelayMs };
  }
}

type Next = { kind: 'frame'; frame: CaptionsFrame } | { kind: 'closed'; code: number; reason: string };

/** Bridges one socket's messages to pull-based reads: bounded queue (pauses the socket when full) and idle watchdog. */
class Connection {
  readonly #max: number;
  readonly #queue: Next[] = [];
  #waiter: ((next: Next) => void) | undefined;
  #ws: WebSocket | undefined;
  #idle: NodeJS.Timeout | undefined;
  #idleMs = 0;
  #failure: ProtocolError | undefined;

  constructor(max: number) {
    this.#max = max;
  }

  /** Receives raw messages (attached before the handshake completes). */
  push(data: Buffer): void {
    this.#touch();
    let frame: CaptionsFrame;
    try {
      frame = captionsFrameSchema.parse(JSON.parse(String(data)));
    } catch (error) {
      this.#failure ??= new ProtocolError('malformed captions frame', { cause: error, body: String(data).slice(0, 200) });
      this.#ws?.terminate();
      return;
    }
    this.#offer({ kind: 'frame', frame });
    if (this.#queue.length >= this.#max) this.#ws?.pause();
  }

  attach(ws: WebSocket, idleMs: number): void {
    this.#ws = ws;
    this.#idleMs = idleMs;
    this.#touch();
    ws.on('close', (code, reason) => {
      clearTimeout(this.#idle);
      this.#offer({ kind: 'closed', code, reason: String(reason) });
    });
    ws.on('error', () => undefined);
    // A malformed frame or a full queue may have come in before the socket was attached.
    if (this.#failure) ws.terminate();
    else if (this.#queue.length >= this.#max) ws.pause();
  }

  detach(): void {
    clearTimeout(this.#idle);
  }

  async next(): Promise<Next> {
    const queued = this.#queue.shift();
    this.#touch();
    if (queued) {
      if (this.#queue.length < this.#max / 2) this.#ws?.resume();
      return this.#check(queued);
    }
    return this.#check(await new Promise<Next>((resolve) => (this.#waiter = resolve)));
  }

  #check(next: Next): Next {
    if (next.kind === 'closed' && this.#failure) throw this.#failure;
    return next;
  }

  #offer(next: Next): void {
    const waiter = this.#waiter;
    this.#waiter = undefined;
    if (waiter) waiter(next);
    else this.#queue.push(next);
  }

  #touch(): void {
    if (!this.#ws) return;
    clearTimeout(this.#idle);
    this.#idle = setTimeout(() => this.#ws?.terminate(), this.#idleMs);
  }
}

/**
 * Writes `cues` to `write` as SRT (numbered from 1) or WebVTT (header first), one block per cue as it arrives;
 * resolves with the number of cues written.
 */
export async function writeCaptions(cues: AsyncIterable<VttCue> | Iterable<VttCue>, format: 'srt' | 'vtt', write: (chunk: string) => void | Promise<void>): Promise<number> {
  let count = 0;
  if (format === 'vtt') await write('WEBVTT\n');
  for await (const cue of cues) {
    count++;
    await write(format === 'srt' ? srtBlock(cue, count) : `\n${vttBlock(cue)}`);
  }
  return count;
}
