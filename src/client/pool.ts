/**
 * `SessionPool`: pre-warmed, pre-configured {@link SpeechSession}s so that a turn never pays a handshake.
 *
 * - `minSize` sessions are connected and configured up front and kept; the pool grows on demand to `maxSize`.
 * - Callers borrow with {@link SessionPool.withSession}; waiters queue in a p-queue whose concurrency is
 *   `maxSize` (at most `maxWaiting` wait; a wait longer than `acquireTimeoutMs` fails with `pool_exhausted`).
 * - Sessions older than `maxAgeMs` are retired, sessions idle longer than `idleTimeoutMs` are closed down to
 *   `minSize`, and idle sessions are pinged every `healthCheckIntervalMs`; a session that fails the ping,
 *   closed, is reconnecting, or was returned with a turn still running is replaced.
 * - {@link SessionPool.close} rejects waiters with `pool_closed` and closes every session (turns in flight
 *   fail with `connection_closed`).
 */
import { performance } from 'node:perf_hooks';
import { EventEmitter } from 'eventemitter3';
import PQueue from 'p-queue';
import { InvalidArgumentError, VoxpipeError } from '../errors.js';
import { SpeechSession, type SpeechSessionOptions } from './speech-session.js';

/** The pool was closed (code `pool_closed`). */
export class PoolClosedError extends VoxpipeError {
  constructor(message = 'the session pool is closed') {
    super('pool_closed', message);
  }
}

/** No session became available in time, or too many callers wait (code `pool_exhausted`). */
export class PoolExhaustedError extends VoxpipeError {
  constructor(message: string) {
    super('pool_exhausted', message, { retryable: true });
  }
}

/** Options of {@link SessionPool.create}: every session option plus the pool's sizing and upkeep. */
export interface SessionPoolOptions extends Omit<SpeechSessionOptions, 'signal'> {
  /** Sessions kept connected even when idle. Default 1. */
  minSize?: number;
  /** Most sessions at once (and most concurrent borrowers). Default 4. */
  maxSize?: number;
  /** Retire a session this old when it is next taken, returned or checked. Default 600 000 ms. */
  maxAgeMs?: number;
  /** Close sessions idle this long while more than `minSize` exist. Default 60 000 ms. */
  idleTimeoutMs?: number;
  /** Longest wait for a session before `pool_exhausted`. Default 10 000 ms. */
  acquireTimeoutMs?: number;
  /** Callers allowed to wait at once; more fail at once with `pool_exhausted`. Default 1000. */
  maxWaiting?: number;
  /** Ping idle sessions this often; 0 disables upkeep. Default 15 000 ms. */
  healthCheckIntervalMs?: number;
}

/** Why a session left the pool. */
export type RemovalReason = 'closed' | 'unhealthy' | 'expired' | 'idle' | 'busy' | 'pool-closed';

/** Events of a {@link SessionPool}. */
export interface SessionPoolEvents {
  /** A session was connected and joined the pool. */
  created: (session: SpeechSession) => void;
  /** A session left the pool (and was closed). */
  removed: (session: SpeechSession, reason: RemovalReason) => void;
  /** A background connect or health check failed. */
  error: (error: unknown) => void;
}

interface Entry {
  session: SpeechSession;
  createdAt: number;
  idleSince: number;
}

/** A bounded pool of configured speech sessions. Create it with {@link SessionPool.create}. */
export class SessionPool extends EventEmitter<SessionPoolEvents> {
  readonly #options: SessionPoolOptions;
  readonly #min: number;
  readonly #max: number;
  readonly #queue: PQueue;
  readonly #entries = new Set<Entry>();
  #idle: Entry[] = [];
  #connecting = 0;
  #closed = false;
  readonly #closing = new AbortController();
  #upkeep: NodeJS.Timeout | undefined;
  #checking = false;

  private constructor(options: SessionPoolOptions) {
    super();
    this.#min = options.minSize ?? 1;
    this.#max = options.maxSize ?? 4;
    if (!Number.isInteger(this.#min) || this.#min < 0) throw new InvalidArgumentError('minSize must be a non-negative integer');
    if (!Number.isInteger(this.#max) || this.#max < 1 || this.#max < this.#min) throw new InvalidArgumentError('maxSize must be an integer ≥ 1 and ≥ minSize');
    this.#options = options;
    this.#queue = new PQueue({ concurrency: this.#max });
  }

  /** Creates the pool and connects `minSize` sessions (rejects if the first of them cannot connect). */
  static async create(options: SessionPoolOptions): Promise<SessionPool> {
    const pool = new SessionPool(options);
    try {
      await Promise.all(Array.from({ length: pool.#min }, () => pool.#connect(true)));
    } catch (error) {
      await pool.close();
      throw error;
    }
    const interval = options.healthCheckIntervalMs ?? 15_000;
    if (interval > 0) {
      pool.#upkeep = setInterval(() => void pool.#check(), interval);
      pool.#upkeep.unref();
    }
    return pool;
  }

  /** Sessions in the pool (idle and borrowed). */
  get size(): number {
    return this.#entries.size;
  }

  /** Idle sessions ready to lend. */
  get idleCount(): number {
    return this.#idle.length;
  }

  /** Callers waiting for a session. */
  get waiting(): number {
    return this.#queue.size;
  }

  /**
   * Lends a session to `fn` and takes it back when `fn` settles. A turn `fn` cancelled or ended without
   * waiting is waited for (up to the cancel timeout) before the session is reused; a session returned with a
   * turn still open for writing is closed and replaced. Rejects with `pool_exhausted` after `acquireTimeoutMs`
   * of waiting, `pool_closed` once closed, or `aborted` when `signal` aborts while waiting.
   */
  async withSession<T>(fn: (session: SpeechSession) => Promise<T> | T, options: { signal?: AbortSignal } = {}): Promise<T> {
    if (this.#closed) throw new PoolClosedError();
    if (this.#queue.size >= (this.#options.maxWaiting ?? 1000)) throw new PoolExhaustedError('too many callers are waiting for a session');
    const timeoutMs = this.#options.acquireTimeoutMs ?? 10_000;
    // Aborts only the wait: once the task runs, closing the pool or the caller's signal no longer reject it here.
    const wait = new AbortController();
    const sources = [this.#closing.signal, ...(options.signal ? [options.signal] : [])];
    const forward = (event: Event): void => wait.abort((event.target as AbortSignal).reason);
    for (const source of sources) source.addEventListener('abort', forward, { once: true });
    const timer = setTimeout(() => wait.abort(new PoolExhaustedError(`no session became available within ${timeoutMs} ms`)), timeoutMs);
    const stopWaiting = (): void => {
      clearTimeout(timer);
      for (const source of sources) source.removeEventListener('abort', forward);
    };
    try {
      return await this.#queue.add(
        async () => {
          stopWaiting();
          const entry = await this.#take();
          try {
            return await fn(entry.session);
          } finally {
            await this.#release(entry);
          }
        },
        { signal: wait.signal },
      );
    } catch (error) {
      if (options.signal?.aborted && !(error instanceof VoxpipeError)) throw new VoxpipeError('aborted', 'waiting for a pooled session was aborted', { cause: error });
      throw error;
    } finally {
      stopWaiting();
    }
  }

  /** Closes the pool: waiters fail with `pool_closed`, every session is closed. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#upkeep) clearInterval(this.#upkeep);
    this.#closing.abort(new PoolClosedError());
    this.#idle = [];
    await Promise.all([...this.#entries].map((entry) => this.#remove(entry, 'pool-closed')));
  }

  async #take(): Promise<Entry> {
    for (let entry = this.#idle.pop(); entry; entry = this.#idle.pop()) {
      const reason = this.#unfit(entry);
      if (!reason) return entry;
      void this.#remove(entry, reason);
    }
    if (this.#closed) throw new PoolClosedError();
    return this.#connect(false);
  }

  /** Takes a session back; a turn still finishing (a cancel awaiting its acknowledgement) is waited for first. */
  async #release(entry: Entry): Promise<void> {
    const { session } = entry;
    const idle = session.idle || (await session.drained((this.#options.turn?.cancelTimeoutMs ?? 2000) + 100));
    if (this.#closed) {
      void this.#remove(entry, 'pool-closed');
      return;
    }
    const reason = idle ? this.#unfit(entry) : 'busy';
    if (reason) {
      void this.#remove(entry, reason).then(() => this.#refill());
      return;
    }
    entry.idleSince = performance.now();
    this.#idle.push(entry);
  }

  #unfit(entry: Entry): RemovalReason | undefined {
    if (entry.session.state !== 'open') return entry.session.state === 'closed' ? 'closed' : 'unhealthy';
    if (performance.now() - entry.createdAt > (this.#options.maxAgeMs ?? 600_000)) return 'expired';
    return undefined;
  }

  /** Connects a session (into the idle list when `idle`); pool close aborts it. */
  async #connect(idle: boolean): Promise<Entry> {
    this.#connecting++;
    try {
      const { minSize: _min, maxSize: _max, maxAgeMs: _age, idleTimeoutMs: _idle, acquireTimeoutMs: _acq, maxWaiting: _wait, healthCheckIntervalMs: _hc, ...sessionOptions } = this.#options;
      const session = await SpeechSession.connect({
        ...sessionOptions,
        signal: this.#closing.signal,
      });
      const now = performance.now();
      const entry: Entry = { session, createdAt: now, idleSince: now };
      this.#entries.add(entry);
      session.once('close', () => {
        if (!this.#entries.has(entry)) return;
        this.#entries.delete(entry);
        this.#idle = this.#idle.filter((e) => e !== entry);
        this.emit('removed', session, 'closed');
        this.#refill();
      });
      if (idle) this.#idle.push(entry);
      this.emit('created', session);
      return entry;
    } finally {
      this.#connecting--;
    }
  }

  async #remove(entry: Entry, reason: RemovalReason): Promise<void> {
    if (!this.#entries.delete(entry)) return;
    this.#idle = this.#idle.filter((e) => e !== entry);
    this.emit('removed', entry.session, reason);
    await entry.session.close();
  }

  #refill(): void {
    if (this.#closed) return;
    const missing = this.#min - this.#entries.size - this.#connecting;
    for (let i = 0; i < missing; i++) {
      this.#connect(true).then(
        (entry) => {
          if (this.#closed) void this.#remove(entry, 'pool-closed');
        },
        (error: unknown) => this.emit('error', error),
      );
    }
  }

  async #check(): Promise<void> {
    if (this.#checking || this.#closed) return;
    this.#checking = true;
    try {
      const now = performance.now();
      const idleLimit = this.#options.idleTimeoutMs ?? 60_000;
      for (const entry of [...this.#idle]) {
        const unfit = this.#unfit(entry) ?? (now - entry.idleSince > idleLimit && this.#entries.size > this.#min ? 'idle' : undefined);
        if (unfit) {
          await this.#remove(entry, unfit);
          continue;
        }
        try {
          await entry.session.ping();
        } catch (error) {
          this.emit('error', error);
          await this.#remove(entry, 'unhealthy');
        }
      }
      this.#refill();
    } finally {
      this.#checking = false;
    }
  }
}
