/**
 * One `/ws` speech session: the spec's state table as code. Text is scanned for inline tags, interpreted
 * into spoken segments, buffered, and flushed into generations after `firstAudioTimeout` ms or at a
 * sentence boundary. Generations of a turn are spoken one after another (never interleaved), each with a
 * fresh generationId, chunk `index` from 0 and a closing `isFinished` chunk; the turn's last chunk carries
 * `isFinal` once `end-stream` has arrived. `cancel` aborts everything in flight, clears the buffers and
 * acknowledges with `isCancelled` notices and a `status: cancelled`. Errors never close the session.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from 'pino';
import type { WebSocket } from 'ws';
import {
  parseClientAction,
  SPEECH_ERRORS,
  type AudioChunkMessage,
  type ServerMessage,
  type StreamConfig,
} from '../../protocol/speech.js';
import { TagScanner, type TagInterpreter, type SpokenSegment } from '../../tags/index.js';
import type { AccountConfig } from '../config.js';
import type { MeteredConnection, ServerContext } from '../context.js';
import { diacritize } from './diacritize.js';
import { GenerationFailure, renderSegments } from './render.js';
import { interpreterFor, resolveSettings, type SpeechSettings } from './settings.js';

/** Limits of a session (documented defaults). */
export const SESSION_LIMITS = {
  /** Text buffered but not yet flushed, per turn. */
  maxBufferedChars: 100_000,
  /** A generation is cut at a space once its text reaches this length, even without a sentence end. */
  maxGenerationChars: 1_000,
  /** Audio sent ahead of real time when `realtime` is true. */
  realtimeLeadMs: 300,
  /** Socket send buffer above which the session stops producing audio until the client reads. */
  highWaterBytes: 1024 * 1024,
  /** How long a client may leave the send buffer full before the session is closed (1008). */
  stalledClientMs: 30_000,
} as const;

const SENTENCE_END = /[.!?…。！？]+["'”’)\]]*(?=\s)|[。！？]/g;

interface Generation {
  id: string;
  segments: SpokenSegment[];
  settings: SpeechSettings;
  ctx: string | undefined;
  controller: AbortController;
  /** Set once its isFinished (or cancel) message has gone out. */
  done: boolean;
}

/** State of one WebSocket speech session. */
export class SpeechSession {
  readonly connectionId = randomUUID();
  readonly #ws: WebSocket;
  readonly #ctx: ServerContext;
  readonly #account: AccountConfig;
  readonly #meter: MeteredConnection;
  readonly #log: Logger;
  #settings: SpeechSettings | undefined;
  #scanner = new TagScanner();
  #interpreter: TagInterpreter | undefined;
  #pending: SpokenSegment[] = [];
  #pendingChars = 0;
  #pendingCtx: string | undefined;
  #timer: NodeJS.Timeout | undefined;
  #queue: Generation[] = [];
  #running: Generation | undefined;
  #turnEnded = false;
  /** Real-time pacing of the current turn: wall clock at its first audio, and audio sent since. */
  #paceStart = 0;
  #paceAudioMs = 0;
  #closed = false;

  constructor(ws: WebSocket, ctx: ServerContext, account: AccountConfig) {
    this.#ws = ws;
    this.#ctx = ctx;
    this.#account = account;
    this.#meter = ctx.meter.open(account.id, account.region);
    this.#log = ctx.logger.child({ area: 'speech', connectionId: this.connectionId, account: account.id });
    ws.on('message', (data, isBinary) => this.#onMessage(data as Buffer | Buffer[], isBinary));
    ws.on('close', () => this.#onClose());
    ws.on('error', (error) => this.#log.warn({ err: error.message }, 'socket error'));
    this.#send({ action: 'status', message: 'connected', connectionId: this.connectionId });
    this.#log.info('session opened');
  }

  #onMessage(data: Buffer | Buffer[], _isBinary: boolean): void {
    const parsed = parseClientAction(data);
    if (!parsed.ok) return this.#error(parsed.error);
    const msg = parsed.message;
    switch (msg.action) {
      case 'ping':
        return this.#send({ action: 'pong' });
      case 'stream-config':
        return this.#configure(msg.config);
      case 'stream-text':
        return this.#text(msg.text, msg.ctx);
      case 'end-stream':
        return this.#endStream();
      case 'cancel':
        return this.#cancel();
    }
  }

  #configure(raw: StreamConfig): void {
    const result = resolveSettings(raw, this.#settings, { config: this.#ctx.config, account: this.#account, voices: this.#ctx.voices });
    if (!result.ok) return this.#error(result.error);
    const previous = this.#settings;
    const next = result.settings;
    this.#settings = next;
    this.#meter.setModel(next.model);
    if (!this.#interpreter) {
      this.#interpreter = interpreterFor(next, this.#account.id, this.#ctx.voices, () => this.#settings);
    } else {
      this.#interpreter.setBase({
        ...(raw.locale !== undefined ? { locale: next.locale } : {}),
        ...(raw.voicePromptId !== undefined ? { voicePromptId: next.voicePromptId } : {}),
        ...(raw.targetGender !== undefined ? { targetGender: next.targetGender } : {}),
      });
    }
    if (previous?.acceptEmojis !== next.acceptEmojis && this.#scanner.pending === '') this.#scanner = new TagScanner({ acceptEmojis: next.acceptEmojis });
    this.#log.info({ model: next.model, format: next.format, sampleRate: next.sampleRate, realtime: next.realtime }, 'session configured');
  }

  #text(text: string, ctx: string | undefined): void {
    const settings = this.#settings;
    const interpreter = this.#interpreter;
    if (!settings || !interpreter) return this.#error(SPEECH_ERRORS.configRequired);
    if (this.#pendingChars + this.#scanner.pending.length + text.length > SESSION_LIMITS.maxBufferedChars) {
      return this.#error(`text buffer limit of ${SESSION_LIMITS.maxBufferedChars} characters exceeded; send end-stream or wait for audio`);
    }
    if (this.#turnEnded && !this.#turnActive()) this.#turnEnded = false;
    if (ctx !== undefined) this.#pendingCtx = ctx;
    if (settings.enableLogging) this.#log.debug({ text }, 'text received');
    this.#addSegments(interpreter.apply(this.#scanner.push(text)));
    if (this.#pendingChars > 0 || this.#scanner.pending !== '') this.#armTimer(settings.firstAudioTimeout);
    this.#flushSentences();
  }

  #addSegments(segments: SpokenSegment[]): void {
    for (const s of segments) {
      const last = this.#pending.at(-1);
      if (last && JSON.stringify(last.state) === JSON.stringify(s.state)) last.text += s.text;
      else this.#pending.push({ text: s.text, state: { ...s.state } });
      this.#pendingChars += s.text.length;
    }
  }

  #armTimer(ms: number): void {
    if (this.#timer) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      // No more text came in time: release a held grapheme too, then flush everything buffered.
      if (this.#interpreter) this.#addSegments(this.#interpreter.apply(this.#scanner.drain()));
      this.#flush(this.#pending.length);
    }, ms);
  }

  /** Flushes each complete sentence (or an over-long run) of the pending text as its own generation. */
  #flushSentences(): void {
    while (this.#flushOneSentence());
  }

  #flushOneSentence(): boolean {
    const all = this.#pending.map((s) => s.text).join('');
    SENTENCE_END.lastIndex = 0;
    const m = SENTENCE_END.exec(all);
    let cut = m ? m.index + m[0].length : -1;
    if (cut < 0 && all.length >= SESSION_LIMITS.maxGenerationChars) cut = Math.max(all.lastIndexOf(' ', SESSION_LIMITS.maxGenerationChars), 1);
    if (cut <= 0) return false;
    const head: SpokenSegment[] = [];
    let left = cut;
    while (left > 0 && this.#pending.length > 0) {
      const seg = this.#pending[0] as SpokenSegment;
      if (seg.text.length <= left) {
        head.push(seg);
        this.#pending.shift();
        left -= seg.text.length;
      } else {
        head.push({ text: seg.text.slice(0, left), state: seg.state });
        seg.text = seg.text.slice(left);
        left = 0;
      }
    }
    this.#pendingChars -= cut;
    if (head.some((seg) => seg.text.trim() !== '')) this.#startGeneration(head);
    if (this.#pendingChars === 0 && this.#scanner.pending === '') this.#clearTimer();
    return true;
  }

  /** Flushes the first `count` pending segments (all of them by default) into a generation. */
  #flush(count: number): void {
    const segments = this.#pending.splice(0, count);
    this.#pendingChars = this.#pending.reduce((n, s) => n + s.text.length, 0);
    if (segments.some((s) => s.text.trim() !== '')) this.#startGeneration(segments);
  }

  #startGeneration(segments: SpokenSegment[]): void {
    const settings = this.#settings as SpeechSettings;
    const gen: Generation = { id: randomUUID(), segments, settings, ctx: this.#pendingCtx, controller: new AbortController(), done: false };
    this.#pendingCtx = undefined;
    if (settings.enableLogging && gen.ctx !== undefined) this.#log.debug({ generationId: gen.id, ctx: gen.ctx }, 'ctx forwarded to worker');
    this.#queue.push(gen);
    if (!this.#running) void this.#runQueue();
  }

  #endStream(): void {
    if (!this.#settings || !this.#interpreter) return this.#error(SPEECH_ERRORS.configRequired);
    this.#clearTimer();
    this.#addSegments(this.#interpreter.apply(this.#scanner.flush()));
    this.#flush(this.#pending.length);
    this.#turnEnded = true;
    // Nothing left to speak: close the turn with an empty final generation.
    if (!this.#running && this.#queue.length === 0) this.#queue.push({ id: randomUUID(), segments: [], settings: this.#settings, ctx: undefined, controller: new AbortController(), done: false });
    if (!this.#running) void this.#runQueue();
  }

  #turnActive(): boolean {
    return this.#running !== undefined || this.#queue.length > 0 || this.#pendingChars > 0;
  }

  async #runQueue(): Promise<void> {
    while (!this.#closed) {
      const gen = this.#queue.shift();
      if (!gen) break;
      this.#running = gen;
      await this.#runGeneration(gen);
      this.#running = undefined;
    }
    // Idle: the next audio starts a new real-time budget.
    if (!this.#turnActive()) this.#resetPacing();
  }

  async #runGeneration(gen: Generation): Promise<void> {
    const signal = gen.controller.signal;
    const diacritized = gen.settings.outputDiacritized ? diacritize(gen.segments.map((s) => s.text).join(''), gen.segments[0]?.state.targetGender ?? gen.settings.targetGender) : undefined;
    let index = 0;
    try {
      const audio = renderSegments(gen.segments, gen.settings, { synthesizer: this.#ctx.synthesizer, voices: this.#ctx.voices, accountId: this.#account.id }, signal);
      for await (const piece of audio) {
        if (signal.aborted || gen.done) return;
        await this.#pace(piece.audioMs, gen.settings.realtime);
        if (signal.aborted || gen.done || this.#closed) return;
        const chunk: AudioChunkMessage = { generationId: gen.id, index, data: piece.data.toString('base64'), isFinished: false };
        if (index === 0 && diacritized !== undefined) chunk.diacritized = diacritized;
        this.#send(chunk);
        index++;
      }
    } catch (error) {
      if (signal.aborted || gen.done) return;
      const message = error instanceof GenerationFailure ? error.message : `generation failed: ${(error as Error).message}`;
      gen.done = true;
      this.#log.warn({ generationId: gen.id, err: (error as Error).message }, 'generation failed');
      this.#send({ generationId: gen.id, error: message });
      this.#maybeCloseTurnAfterFailure();
      return;
    }
    if (signal.aborted || gen.done) return;
    gen.done = true;
    const closing: AudioChunkMessage = { generationId: gen.id, index, isFinished: true };
    if (index === 0 && diacritized !== undefined) closing.diacritized = diacritized;
    if (this.#turnEnded && this.#queue.length === 0 && this.#pendingChars === 0) closing.isFinal = true;
    this.#send(closing);
  }

  /** A failed generation was the last of an ended turn: the turn still needs its isFinal. */
  #maybeCloseTurnAfterFailure(): void {
    if (this.#turnEnded && this.#queue.length === 0 && this.#pendingChars === 0 && this.#settings) {
      this.#queue.push({ id: randomUUID(), segments: [], settings: this.#settings, ctx: undefined, controller: new AbortController(), done: false });
    }
  }

  /** Waits so that audio is not sent more than `realtimeLeadMs` ahead of real time, and for a slow client. */
  async #pace(audioMs: number, realtime: boolean): Promise<void> {
    const started = Date.now();
    while (this.#ws.bufferedAmount > SESSION_LIMITS.highWaterBytes && !this.#closed) {
      if (Date.now() - started > SESSION_LIMITS.stalledClientMs) {
        this.#log.warn('client stopped reading; closing session');
        this.#ws.close(1008, 'client is not reading audio');
        return;
      }
      await sleep(10);
    }
    if (!realtime) return;
    if (this.#paceStart === 0) this.#paceStart = Date.now();
    const ahead = this.#paceAudioMs - (Date.now() - this.#paceStart) - SESSION_LIMITS.realtimeLeadMs;
    if (ahead > 0) await sleep(ahead);
    this.#paceAudioMs += audioMs;
  }

  #resetPacing(): void {
    this.#paceStart = 0;
    this.#paceAudioMs = 0;
  }

  #cancel(): void {
    this.#clearTimer();
    this.#scanner.reset();
    this.#pending = [];
    this.#pendingChars = 0;
    this.#pendingCtx = undefined;
    const inFlight = [...(this.#running ? [this.#running] : []), ...this.#queue];
    this.#queue = [];
    for (const gen of inFlight) {
      if (gen.done) continue;
      gen.done = true;
      gen.controller.abort();
      this.#send({ generationId: gen.id, isFinished: true, isCancelled: true });
    }
    this.#turnEnded = false;
    this.#resetPacing();
    this.#send({ action: 'status', message: 'cancelled', connectionId: this.connectionId });
    this.#log.info({ generations: inFlight.length }, 'turn cancelled');
  }

  #clearTimer(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #error(message: string): void {
    this.#send({ action: 'error', message, time: Math.floor(Date.now() / 1000) });
  }

  #send(message: ServerMessage): void {
    if (this.#closed || this.#ws.readyState !== this.#ws.OPEN) return;
    this.#ws.send(JSON.stringify(message));
  }

  #onClose(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#clearTimer();
    for (const gen of [...(this.#running ? [this.#running] : []), ...this.#queue]) gen.controller.abort();
    this.#queue = [];
    this.#meter.close();
    this.#log.info('session closed');
  }
}

