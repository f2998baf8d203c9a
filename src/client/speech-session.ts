/**
 * `SpeechSession`: the typed client of the speech streaming socket (`/ws`).
 *
 * ```ts
 * const session = await SpeechSession.connect({ baseUrl, apiKey, config: { model: 'dd-etts-3.3' } });
 * const turn = session.turn();
 * turn.write('Hello there.');
 * turn.end();
 * for await (const chunk of turn.audio()) sink(chunk.data);
 * const metrics = await turn.done;
 * ```
 *
 * - Connect: header or query auth; awaits the welcome `status` (a server that sends none is tolerated after
 *   `welcomeTimeoutMs`), sends `stream-config` and, with `verifyConfig`, checks it with a `ping`: the server
 *   answers in order, so an `error` before the `pong` means the config was refused.
 * - One turn at a time: `turn()` while a turn is open or awaiting its isFinal throws `conflict`. After
 *   `cancel()` (even before it resolves) a new turn may start; its text is held until the server
 *   acknowledged the cancel, so the new turn never receives audio of the old one.
 * - Keepalive: a `ping` every `pingIntervalMs`; no `pong` within `pongTimeoutMs` means the socket is dead.
 * - Drops: a drop between turns reconnects with backoff and jitter and re-sends the config (frames written
 *   meanwhile wait in a bounded outbox); a drop mid-turn fails that turn with `connection_closed`.
 * - Backpressure: each turn buffers at most `maxBufferedChunks` chunks for a slow consumer; at that mark the
 *   session pauses reading the socket (TCP backpressure reaches the server) and resumes at half.
 */
import { performance } from 'node:perf_hooks';
import { EventEmitter } from 'eventemitter3';
import type { Logger } from 'pino';
import type WebSocket from 'ws';
import { AbortError, ConnectionError, ProtocolError, TimeoutError, VoxpipeError, shouldRetry } from '../errors.js';
import { silentLogger } from '../logger.js';
import { parseServerMessage, type ClientAction, type StreamConfig } from '../protocol/speech.js';
import { backoffMs, sleep } from './http.js';
import { resolveSocketUrl, type SocketEndpointOptions } from './speech/endpoint.js';
import { GenerationError, SessionError } from './speech/errors.js';
import { openSocket, type SocketAuth } from './speech/open-socket.js';
import { Turn, type TurnHost, type TurnOptions } from './speech/turn.js';
import { publishSessionEvent, publishTurnMetrics, type SessionLifecycleEvent, type TurnMetrics } from './speech/turn-metrics.js';

/** Reconnect policy after a socket drop: exponential backoff with full jitter. */
export interface ReconnectOptions {
  /** Attempts before giving up. Default 5. */
  maxAttempts?: number;
  /** Base delay of the backoff. Default 250 ms. */
  baseDelayMs?: number;
  /** Cap of the backoff. Default 5000 ms. */
  maxDelayMs?: number;
}

/** Options of {@link SpeechSession.connect}. */
export interface SpeechSessionOptions extends SocketEndpointOptions {
  /** API key (`dd-` + 32 hex on the hosted service). */
  apiKey?: string;
  /** Where the key goes during the handshake. Default `header`. */
  auth?: SocketAuth;
  /** The `stream-config` payload; `model` is required by the service. */
  config: StreamConfig;
  /** Aborting cancels the connect, or closes the session once connected. */
  signal?: AbortSignal;
  logger?: Logger;
  /** Handshake time limit per attempt. Default 10 000 ms. */
  connectTimeoutMs?: number;
  /** How long to wait for the welcome `status` before going on without it. Default 500 ms. */
  welcomeTimeoutMs?: number;
  /** Check each `stream-config` with a `ping` round trip (see the module doc). Default true. */
  verifyConfig?: boolean;
  /** Keepalive interval; 0 disables. Default 15 000 ms. */
  pingIntervalMs?: number;
  /** A keepalive `ping` without `pong` for this long kills the socket. Default 5000 ms. */
  pongTimeoutMs?: number;
  /** Reconnect policy, or false to close the session on the first drop. */
  reconnect?: ReconnectOptions | false;
  /** Defaults for every turn of this session. */
  turn?: Omit<TurnOptions, 'signal'>;
  /** Frames held while reconnecting before `write` throws. Default 1024. */
  maxPendingFrames?: number;
}

/** Connection state of a session. */
export type SessionState = 'connecting' | 'open' | 'reconnecting' | 'closed';

/** Events of a {@link SpeechSession} (eventemitter3). */
export interface SpeechSessionEvents {
  /** A socket is open and configured (also after each reconnect). */
  connected: (event: Extract<SessionLifecycleEvent, { type: 'connected' }>) => void;
  /** The socket dropped. */
  disconnected: (event: Extract<SessionLifecycleEvent, { type: 'disconnected' }>) => void;
  /** A reconnect attempt is scheduled. */
  reconnecting: (event: Extract<SessionLifecycleEvent, { type: 'reconnecting' }>) => void;
  /** Session-level `error` messages, malformed frames, and the error that closed the session. */
  error: (error: VoxpipeError) => void;
  /** A worker-level error stopped one generation of `turn`; the turn goes on. */
  generationError: (error: GenerationError, turn: Turn) => void;
  /** A turn ended (also published on `voxpipe:turn`). */
  turn: (metrics: TurnMetrics) => void;
  /** The session is closed for good. */
  close: () => void;
}

const STALE_GENERATIONS_KEPT = 256;

/** A persistent speech streaming session over `/ws`. Create it with {@link SpeechSession.connect}. */
export class SpeechSession extends EventEmitter<SpeechSessionEvents> {
  /** The resolved socket URL (without the key). */
  readonly url: string;
  readonly #url: URL;
  readonly #options: SpeechSessionOptions;
  readonly #log: Logger;
  readonly #closed = new AbortController();
  #config: StreamConfig;
  #state: SessionState = 'connecting';
  #ws: WebSocket | undefined;
  #connectionId: string | undefined;
  #welcome: (() => void) | undefined;
  #configCheck: ((error: SessionError) => void) | undefined;
  #pongs: Array<{ resolve: () => void; reject: (error: Error) => void }> = [];
  #keepalive: NodeJS.Timeout | undefined;
  #pinging = false;
  #paused = false;
  #outbox: string[] = [];
  #turns = 0;
  #current: Turn | undefined;
  #next: Turn | undefined;
  readonly #stale = new Set<string>();
  readonly #host: TurnHost;

  private constructor(options: SpeechSessionOptions) {
    super();
    this.#options = options;
    this.#url = resolveSocketUrl(options, '/ws');
    this.url = this.#url.toString();
    this.#config = { ...options.config };
    this.#log = (options.logger ?? silentLogger()).child({ component: 'speech-session' });
    const session = this;
    this.#host = {
      get connectionId() {
        return session.#connectionId;
      },
      get config() {
        return session.#config;
      },
      send: (frame) => this.#send(frame),
      pauseReading: () => this.#pause(),
      resumeReading: () => this.#resume(),
      turnSettled: (turn, metrics, error) => this.#turnSettled(turn, metrics, error),
      generationFailed: (error, turn) => {
        this.#log.warn({ turnId: turn.id, generationId: error.generationId }, 'generation error');
        this.emit('generationError', error, turn);
      },
    };
  }

  /** Connects, awaits the welcome and configures the session; retries retryable connect failures per `reconnect`. */
  static async connect(options: SpeechSessionOptions): Promise<SpeechSession> {
    const { signal } = options;
    if (signal?.aborted) throw new AbortError();
    const session = new SpeechSession(options);
    const onAbort = (): void => void session.close();
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      await session.#connectLoop(true);
    } catch (error) {
      signal?.removeEventListener('abort', onAbort);
      await session.close();
      throw error;
    }
    return session;
  }

  /** Connection state. */
  get state(): SessionState {
    return this.#state;
  }

  /** Server connection id from the welcome (changes on reconnect); undefined when the server sent none. */
  get connectionId(): string | undefined {
    return this.#connectionId;
  }

  /** The `stream-config` in force (re-sent after each reconnect). */
  get config(): Readonly<StreamConfig> {
    return this.#config;
  }

  /** Whether no turn is running or waiting. */
  get idle(): boolean {
    return this.#current === undefined && this.#next === undefined;
  }

  /**
   * Starts a turn. Throws `conflict` while another turn is open or awaiting its isFinal, and
   * `connection_closed` when the session is closed.
   */
  turn(options: TurnOptions = {}): Turn {
    if (this.#state === 'closed') throw new ConnectionError('connection_closed', 'the speech session is closed');
    const busy = (turn: Turn | undefined): boolean => turn !== undefined && !turn.settled && turn.state !== 'cancelling';
    if (busy(this.#current) || busy(this.#next)) throw new VoxpipeError('conflict', 'another turn is running on this session; end or cancel it first');
    const merged: TurnOptions = { ...this.#options.turn, ...options };
    const waitFor = this.#next ?? this.#current;
    const turn = new Turn(++this.#turns, this.#host, merged, waitFor === undefined);
    if (waitFor === undefined) this.#current = turn;
    else {
      this.#next = turn;
      void waitFor.quiet.then(() => this.#promote(turn));
    }
    return turn;
  }

  /**
   * Resolves true once no turn is running or waiting, e.g. after a `cancel()` that was not awaited got its
   * acknowledgement or an ended turn got its isFinal; false after `timeoutMs`, or at once when a turn is
   * still open for writing (it will not finish by itself).
   */
  async drained(timeoutMs: number): Promise<boolean> {
    const deadline = performance.now() + timeoutMs;
    while (!this.idle) {
      const turn = this.#next ?? this.#current;
      const left = deadline - performance.now();
      if (!turn || turn.state === 'open' || left <= 0) return false;
      let timer: NodeJS.Timeout | undefined;
      const quiet = await Promise.race([turn.quiet.then(() => true), new Promise<boolean>((resolve) => (timer = setTimeout(resolve, left, false)))]);
      clearTimeout(timer);
      if (!quiet) return false;
      await Promise.resolve();
    }
    return true;
  }

  /** Sends a new `stream-config` (applies to text flushed afterwards, and after reconnects); verified like at connect. */
  async configure(config: StreamConfig): Promise<void> {
    this.#config = { ...config };
    const ws = this.#ws;
    if (this.#state !== 'open' || !ws) return;
    await this.#sendConfig(ws);
  }

  /** Sends `ping` and resolves with the round-trip time in ms; rejects with {@link TimeoutError} after `timeoutMs` (default 5000). */
  ping(timeoutMs = this.#options.pongTimeoutMs ?? 5000): Promise<number> {
    const ws = this.#ws;
    if (this.#state !== 'open' || !ws) return Promise.reject(new ConnectionError('connection_closed', 'the speech session is not connected'));
    return this.#rawPing(ws, timeoutMs);
  }

  /** Closes the session for good: the running turn fails with `connection_closed`, no reconnect. */
  async close(): Promise<void> {
    if (this.#state === 'closed') return;
    this.#state = 'closed';
    this.#closed.abort();
    this.#stopKeepalive();
    this.#rejectPings();
    const error = new ConnectionError('connection_closed', 'the speech session was closed');
    for (const turn of [this.#current, this.#next]) turn?.connectionLost(error, true);
    this.#current = this.#next = undefined;
    this.#outbox = [];
    const ws = this.#ws;
    this.#ws = undefined;
    if (ws && ws.readyState !== ws.CLOSED) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => ws.terminate(), 1000);
        ws.once('close', () => {
          clearTimeout(timer);
          resolve();
        });
        ws.close(1000);
      });
    }
    this.#log.debug('closed');
    publishSessionEvent({ type: 'closed' });
    this.emit('close');
  }

  /** Abruptly destroys the socket (as a network failure would); the session reacts as to any drop. For tests and health checks. */
  terminateSocket(): void {
    this.#ws?.terminate();
  }

  async #connectLoop(initial: boolean, cause?: Error): Promise<void> {
    const policy = this.#options.reconnect;
    const maxAttempts = policy === false ? (initial ? 1 : 0) : (policy?.maxAttempts ?? 5);
    let lastError: unknown = cause;
    for (let attempt = 0; attempt < maxAttempts; attempt++) {
      if (!initial || attempt > 0) {
        const delayMs = backoffMs(initial ? attempt - 1 : attempt, policy ? (policy.baseDelayMs ?? 250) : 250, policy ? (policy.maxDelayMs ?? 5000) : 5000);
        const event = { type: 'reconnecting' as const, attempt: attempt + 1, delayMs, error: lastError as Error };
        this.#log.info({ attempt: event.attempt, delayMs }, 'reconnecting');
        publishSessionEvent(event);
        this.emit('reconnecting', event);
        await sleep(delayMs, this.#closed.signal);
      }
      try {
        await this.#establish();
        return;
      } catch (error) {
        lastError = error;
        if (!shouldRetry(error) || this.#state === 'closed') throw error;
      }
    }
    throw lastError;
  }

  async #establish(): Promise<void> {
    this.#connectionId = undefined;
    const welcome = new Promise<void>((resolve) => {
      this.#welcome = resolve;
    });
    const ws = await openSocket({
      onMessage: (data) => this.#onFrame(data),
      url: this.#url,
      apiKey: this.#options.apiKey,
      auth: this.#options.auth,
      timeoutMs: this.#options.connectTimeoutMs,
      signal: this.#closed.signal,
    });
    this.#paused = false;
    const closedEarly = new Promise<never>((_, reject) => {
      ws.once('close', () => reject(new ConnectionError('connection_failed', 'the speech socket closed during setup', { retryable: true })));
    });
    closedEarly.catch(() => {});
    ws.on('error', (error) => this.#log.debug({ err: error }, 'socket error'));
    try {
      await Promise.race([raceTimeout(welcome, this.#options.welcomeTimeoutMs ?? 500), closedEarly]);
      this.#welcome = undefined;
      await Promise.race([this.#sendConfig(ws), closedEarly]);
    } catch (error) {
      this.#welcome = undefined;
      ws.terminate();
      throw error;
    }
    if (this.#closed.signal.aborted) {
      ws.close(1000);
      return;
    }
    this.#ws = ws;
    ws.once('close', (code: number, reason: Buffer) => this.#onClose(ws, code, reason.toString()));
    this.#state = 'open';
    const outbox = this.#outbox;
    this.#outbox = [];
    for (const frame of outbox) ws.send(frame);
    this.#startKeepalive(ws);
    const event = { type: 'connected' as const, connectionId: this.#connectionId, url: this.url };
    this.#log.info({ connectionId: this.#connectionId }, 'connected');
    publishSessionEvent(event);
    this.emit('connected', event);
  }

  async #sendConfig(ws: WebSocket): Promise<void> {
    ws.send(JSON.stringify({ action: 'stream-config', config: this.#config }));
    if (this.#options.verifyConfig === false) return;
    const refused = new Promise<never>((_, reject) => {
      this.#configCheck = reject;
    });
    refused.catch(() => {});
    try {
      await Promise.race([this.#rawPing(ws, this.#options.pongTimeoutMs ?? 5000), refused]);
    } finally {
      this.#configCheck = undefined;
    }
  }

  #rawPing(ws: WebSocket, timeoutMs: number): Promise<number> {
    const sentAt = performance.now();
    return new Promise<number>((resolve, reject) => {
      const waiter = {
        resolve: (): void => {
          clearTimeout(timer);
          resolve(performance.now() - sentAt);
        },
        reject: (error: Error): void => {
          clearTimeout(timer);
          reject(error);
        },
      };
      const timer = setTimeout(() => {
        const i = this.#pongs.indexOf(waiter);
        if (i >= 0) this.#pongs.splice(i, 1);
        reject(new TimeoutError(`no pong within ${timeoutMs} ms`));
      }, timeoutMs);
      this.#pongs.push(waiter);
      ws.send('{"action":"ping"}');
    });
  }

  #send(frame: ClientAction): void {
    const text = JSON.stringify(frame);
    if (this.#state === 'open' && this.#ws) {
      this.#ws.send(text);
      return;
    }
    if (this.#state === 'closed') throw new ConnectionError('connection_closed', 'the speech session is closed');
    if (this.#outbox.length >= (this.#options.maxPendingFrames ?? 1024)) {
      throw new ConnectionError('connection_closed', 'the speech session is reconnecting and its outbox is full');
    }
    this.#outbox.push(text);
  }

  #onFrame(data: Buffer): void {
    const receivedAt = performance.now();
    const parsed = parseServerMessage(data);
    switch (parsed.kind) {
      case 'chunk': {
        const turn = this.#current;
        if (!turn || (this.#stale.has(parsed.message.generationId) && !turn.draining)) return;
        turn.handleChunk(parsed.message, receivedAt);
        return;
      }
      case 'pong':
        this.#pongs.shift()?.resolve();
        return;
      case 'status':
        if (parsed.message.message === 'connected') {
          this.#connectionId = parsed.message.connectionId;
          this.#welcome?.();
        } else if (parsed.message.message === 'cancelled') this.#current?.handleCancelledStatus();
        return;
      case 'error': {
        const error = new SessionError(parsed.message.message, { time: parsed.message.time, body: parsed.message });
        this.#log.warn({ message: parsed.message.message }, 'session error');
        if (this.#configCheck) {
          this.#configCheck(error);
          return;
        }
        this.emit('error', error);
        const turn = this.#current;
        if (turn?.started && !turn.settled) turn.fail(error, true);
        return;
      }
      case 'generation-error':
        this.#current?.handleGenerationError(parsed.message.generationId, parsed.message.error);
        return;
      case 'invalid':
        this.#log.warn({ reason: parsed.reason }, 'protocol error');
        this.emit('error', new ProtocolError(`unexpected message from the speech socket: ${parsed.reason}`, { body: parsed.raw.slice(0, 200) }));
        return;
    }
  }

  #onClose(ws: WebSocket, code: number, reason: string): void {
    if (this.#ws !== ws) return;
    this.#ws = undefined;
    this.#stopKeepalive();
    this.#rejectPings();
    if (this.#state === 'closed') return;
    this.#state = 'reconnecting';
    const event = { type: 'disconnected' as const, code, reason };
    this.#log.warn({ code }, 'disconnected');
    publishSessionEvent(event);
    this.emit('disconnected', event);
    const error = new ConnectionError('connection_closed', `the speech socket closed mid-turn (code ${code}${reason ? `: ${reason}` : ''})`, { retryable: true });
    this.#current?.connectionLost(error, false);
    this.#connectLoop(false, error).catch((cause: unknown) => {
      if (this.#state === 'closed') return;
      const fatal = cause instanceof VoxpipeError ? cause : new ConnectionError('connection_failed', 'reconnecting the speech session failed', { cause });
      this.#log.error({ code: fatal.code }, 'reconnect failed');
      this.emit('error', fatal);
      void this.close();
    });
  }

  #turnSettled(turn: Turn, metrics: TurnMetrics, error: VoxpipeError | undefined): void {
    if (metrics.outcome !== 'final') {
      for (const id of turn.generationIds) this.#stale.add(id);
      while (this.#stale.size > STALE_GENERATIONS_KEPT) this.#stale.delete(this.#stale.values().next().value as string);
    }
    if (error) this.#log.debug({ turnId: turn.id, code: error.code }, 'turn failed');
    void turn.quiet.then(() => {
      if (this.#current === turn) this.#current = undefined;
    });
    publishTurnMetrics(metrics);
    this.emit('turn', metrics);
  }

  #promote(turn: Turn): void {
    if (this.#next !== turn) return;
    this.#next = undefined;
    this.#current = turn;
    turn.activate();
  }

  #pause(): void {
    this.#paused = true;
    this.#ws?.pause();
  }

  #resume(): void {
    this.#paused = false;
    this.#ws?.resume();
  }

  #startKeepalive(ws: WebSocket): void {
    const interval = this.#options.pingIntervalMs ?? 15_000;
    if (interval <= 0) return;
    this.#keepalive = setInterval(() => {
      if (this.#paused || this.#pinging || this.#ws !== ws) return;
      this.#pinging = true;
      this.#rawPing(ws, this.#options.pongTimeoutMs ?? 5000).then(
        () => {
          this.#pinging = false;
        },
        () => {
          this.#pinging = false;
          this.#log.warn('pong timeout');
          ws.terminate();
        },
      );
    }, interval);
    this.#keepalive.unref();
  }

  #rejectPings(): void {
    const pongs = this.#pongs;
    this.#pongs = [];
    for (const waiter of pongs) waiter.reject(new ConnectionError('connection_closed', 'the speech socket closed before the pong'));
  }

  #stopKeepalive(): void {
    if (this.#keepalive) clearInterval(this.#keepalive);
    this.#keepalive = undefined;
    this.#pinging = false;
  }
}

function raceTimeout(promise: Promise<void>, ms: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    promise.then(
      () => {
        clearTimeout(timer);
        resolve();
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}
