/**
 * `OpenSpeechClient`: the client of the complete-text socket `/open`, for text known in full at call time.
 * Each {@link OpenSpeechClient.speak} sends one `text-to-speech` request with its own generation id; several
 * run at once on one socket and their chunks are demultiplexed by id. The server's empty acknowledgement is
 * consumed, never delivered. Failures (`{error, errorType}`) become typed errors: `RateLimit` and
 * `MaxExceeded` → {@link RateLimitError} (`rate_limited`), `InsufficientCredits` → {@link PaymentRequiredError},
 * `InvalidInput` → {@link BadRequestError}. The socket is opened on first use and again after a drop; a drop
 * fails the requests in flight with `connection_closed`. Per request, at most `maxBufferedChunks` chunks wait
 * for a slow consumer before the socket is paused (as in {@link SpeechSession}).
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { EventEmitter } from 'eventemitter3';
import type { Logger } from 'pino';
import type WebSocket from 'ws';
import { BadRequestError, ConnectionError, PaymentRequiredError, RateLimitError, VoxpipeError } from '../../errors.js';
import { silentLogger } from '../../logger.js';
import type { OpenErrorType, OpenRequest } from '../../protocol/open.js';
import { frameToString } from '../../protocol/speech.js';
import { toAudioChunk, type AudioChunk } from './audio-chunk.js';
import { AudioClock } from './audio-clock.js';
import { ChunkQueue } from './chunk-queue.js';
import { resolveSocketUrl, type SocketEndpointOptions } from './endpoint.js';
import { openSocket, type SocketAuth } from './open-socket.js';

/** Options of {@link OpenSpeechClient}. */
export interface OpenSpeechClientOptions extends SocketEndpointOptions {
  apiKey?: string;
  /** Where the key goes during the handshake. Default `header`. */
  auth?: SocketAuth;
  /** Handshake time limit. Default 10 000 ms. */
  connectTimeoutMs?: number;
  /** Chunks buffered per request for a slow consumer before the socket is paused. Default 256. */
  maxBufferedChunks?: number;
  logger?: Logger;
}

/** One complete-text request. */
export interface OpenSpeakRequest {
  /** The whole text to speak. */
  text: string;
  model: string;
  locale?: string;
  voicePromptId?: string;
  format?: string;
  sampleRate?: number;
  /** Generation id to use; a random UUID by default. */
  generationId?: string;
  /** Aborting stops delivery of this request's audio at once (the protocol has no cancel action). */
  signal?: AbortSignal;
}

/** What one request measured. */
export interface OpenSpeechResult {
  generationId: string;
  chunkCount: number;
  audioBytes: number;
  /** Playable audio received (see {@link AudioClock}). */
  audioMs: number;
  /** Request sent → first audio chunk (undefined when none came). */
  ttfaMs: number | undefined;
  /** Request sent → last chunk. */
  wallMs: number;
}

/** A running request: read `audio()` once; `done` resolves with the result, or rejects with the typed failure. */
export interface OpenSpeech {
  readonly generationId: string;
  audio(): AsyncIterable<AudioChunk>;
  readonly done: Promise<OpenSpeechResult>;
}

/** Events of an {@link OpenSpeechClient}. */
export interface OpenSpeechClientEvents {
  /** A failure with no generation id, or a malformed frame. */
  error: (error: VoxpipeError) => void;
}

interface Pending {
  id: string;
  seq: number;
  queue: ChunkQueue<AudioChunk>;
  clock: AudioClock;
  sentAt: number;
  firstAt: number | undefined;
  lastAt: number | undefined;
  chunks: number;
  bytes: number;
  stopped: boolean;
  resolve(result: OpenSpeechResult): void;
  reject(error: VoxpipeError): void;
}

/** Client of `/open`. Construct it, call {@link OpenSpeechClient.speak}, {@link OpenSpeechClient.close} at the end. */
export class OpenSpeechClient extends EventEmitter<OpenSpeechClientEvents> {
  readonly #options: OpenSpeechClientOptions;
  readonly #url: URL;
  readonly #log: Logger;
  readonly #pending = new Map<string, Pending>();
  #socket: Promise<WebSocket> | undefined;
  #paused = 0;
  #seq = 0;
  #closed = false;

  constructor(options: OpenSpeechClientOptions) {
    super();
    this.#options = options;
    this.#url = resolveSocketUrl(options, '/open');
    this.#log = (options.logger ?? silentLogger()).child({ component: 'open-speech' });
  }

  /** Requests in flight. */
  get inFlight(): number {
    return this.#pending.size;
  }

  /** Sends one complete-text request; the socket is opened if needed. */
  speak(request: OpenSpeakRequest): OpenSpeech {
    if (this.#closed) throw new ConnectionError('connection_closed', 'the /open client is closed');
    const id = request.generationId ?? randomUUID();
    if (this.#pending.has(id)) throw new VoxpipeError('conflict', `generationId ${id} is already in flight`);
    let resolve!: (result: OpenSpeechResult) => void;
    let reject!: (error: VoxpipeError) => void;
    const done = new Promise<OpenSpeechResult>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    done.catch(() => {});
    const pending: Pending = {
      id,
      seq: ++this.#seq,
      queue: new ChunkQueue<AudioChunk>(this.#options.maxBufferedChunks ?? 256, { onHigh: () => this.#pause(), onLow: () => this.#resume() }),
      clock: new AudioClock(request),
      sentAt: performance.now(),
      firstAt: undefined,
      lastAt: undefined,
      chunks: 0,
      bytes: 0,
      stopped: false,
      resolve,
      reject,
    };
    this.#pending.set(id, pending);
    const stop = (): void => {
      pending.stopped = true;
      pending.queue.clear();
    };
    if (request.signal?.aborted) stop();
    request.signal?.addEventListener('abort', stop, { once: true });
    void done.finally(() => request.signal?.removeEventListener('abort', stop)).catch(() => {});
    const message: OpenRequest = {
      action: 'text-to-speech',
      generationId: id,
      targetText: request.text,
      model: request.model,
      ...(request.locale !== undefined ? { locale: request.locale } : {}),
      ...(request.voicePromptId !== undefined ? { voicePromptId: request.voicePromptId } : {}),
      ...(request.format !== undefined ? { format: request.format } : {}),
      ...(request.sampleRate !== undefined ? { sampleRate: request.sampleRate } : {}),
    };
    this.#connect().then(
      (ws) => {
        pending.sentAt = performance.now();
        ws.send(JSON.stringify(message));
      },
      (error: unknown) => this.#settle(pending, toVoxpipeError(error)),
    );
    let reading = false;
    return {
      generationId: id,
      done,
      audio: () => {
        if (reading) throw new VoxpipeError('invalid_argument', 'audio() can be read only once per request');
        reading = true;
        const iterator: AsyncIterableIterator<AudioChunk> = {
          next: () => pending.queue.next(),
          return: () => {
            stop();
            return Promise.resolve({ value: undefined, done: true });
          },
          [Symbol.asyncIterator]: () => iterator,
        };
        return iterator;
      },
    };
  }

  /** Closes the socket; requests in flight fail with `connection_closed`. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const socket = this.#socket;
    this.#socket = undefined;
    this.#failAll(new ConnectionError('connection_closed', 'the /open client was closed'));
    const ws = await socket?.catch(() => undefined);
    if (ws && ws.readyState !== ws.CLOSED) {
      await new Promise<void>((resolve) => {
        ws.once('close', () => resolve());
        ws.close(1000);
      });
    }
  }

  #connect(): Promise<WebSocket> {
    this.#socket ??= openSocket({
      url: this.#url,
      apiKey: this.#options.apiKey,
      auth: this.#options.auth,
      timeoutMs: this.#options.connectTimeoutMs,
      onMessage: (data) => this.#onFrame(data),
    }).then(
      (ws) => {
        this.#paused = 0;
        ws.on('error', (error) => this.#log.debug({ err: error }, 'socket error'));
        ws.once('close', (code: number) => {
          this.#socket = undefined;
          this.#log.debug({ code }, 'disconnected');
          this.#failAll(new ConnectionError('connection_closed', `the /open socket closed (code ${code})`, { retryable: true }));
        });
        if (this.#closed) ws.close(1000);
        return ws;
      },
      (error: unknown) => {
        this.#socket = undefined;
        throw error;
      },
    );
    return this.#socket;
  }

  #onFrame(data: Buffer): void {
    const at = performance.now();
    let message: Record<string, unknown>;
    try {
      message = JSON.parse(frameToString(data)) as Record<string, unknown>;
    } catch {
      this.emit('error', new VoxpipeError('protocol_error', 'the /open socket sent a frame that is not JSON'));
      return;
    }
    const id = typeof message.generationId === 'string' ? message.generationId : undefined;
    const pending = id === undefined ? undefined : this.#pending.get(id);
    if (typeof message.error === 'string') {
      const error = openError(message.error, message.errorType as OpenErrorType, message);
      if (pending) this.#settle(pending, error);
      else this.emit('error', error);
      return;
    }
    if (!pending || typeof message.data !== 'string') return;
    const isFinished = message.isFinished === true;
    if (message.index === undefined && message.data === '' && !isFinished) return; // the acknowledgement
    if (pending.stopped) {
      if (isFinished) this.#settle(pending, undefined);
      return;
    }
    let chunk: AudioChunk;
    try {
      chunk = toAudioChunk(pending.seq, { generationId: pending.id, data: message.data, isFinished, isFinal: isFinished, ...(typeof message.index === 'number' ? { index: message.index } : {}) }, at);
    } catch (error) {
      this.#settle(pending, error as VoxpipeError);
      return;
    }
    pending.chunks++;
    pending.bytes += chunk.data.length;
    pending.clock.add(chunk.data);
    if (chunk.data.length > 0) pending.firstAt ??= at;
    pending.lastAt = at;
    pending.queue.push(chunk);
    if (isFinished) this.#settle(pending, undefined);
  }

  #settle(pending: Pending, error: VoxpipeError | undefined): void {
    if (this.#pending.get(pending.id) !== pending) return;
    this.#pending.delete(pending.id);
    if (error) {
      pending.queue.fail(error);
      pending.reject(error);
      return;
    }
    pending.queue.end();
    pending.resolve({
      generationId: pending.id,
      chunkCount: pending.chunks,
      audioBytes: pending.bytes,
      audioMs: pending.clock.ms,
      ttfaMs: pending.firstAt === undefined ? undefined : pending.firstAt - pending.sentAt,
      wallMs: (pending.lastAt ?? performance.now()) - pending.sentAt,
    });
  }

  #failAll(error: VoxpipeError): void {
    for (const pending of [...this.#pending.values()]) this.#settle(pending, error);
  }

  #pause(): void {
    if (this.#paused++ === 0) void this.#socket?.then((ws) => ws.pause(), () => {});
  }

  #resume(): void {
    if (this.#paused > 0 && --this.#paused === 0) void this.#socket?.then((ws) => ws.resume(), () => {});
  }
}

/** Maps an `/open` failure to its typed error. */
function openError(message: string, type: OpenErrorType | undefined, body: unknown): VoxpipeError {
  switch (type) {
    case 'RateLimit':
    case 'MaxExceeded':
      return new RateLimitError('rate_limited', message, { body, retryable: true });
    case 'InsufficientCredits':
      return new PaymentRequiredError('payment_required', message, { body });
    default:
      return new BadRequestError('bad_request', message, { body });
  }
}

function toVoxpipeError(error: unknown): VoxpipeError {
  return error instanceof VoxpipeError ? error : new ConnectionError('connection_failed', 'could not open the /open socket', { cause: error, retryable: true });
}
