/**
 * `TwilioCall`: the bridge for one Twilio Media Stream. Caller audio (mu-law 8 kHz) feeds an
 * {@link EnergyVad}; the bot speaks a greeting on `start` and answers after each caller utterance with an
 * LLM token stream piped through {@link speak} into a speech turn requested as mu-law 8 kHz (the Twilio
 * format plan), cut into 160-byte frames, paced a little ahead of playback, with a `mark` after each piece.
 *
 * Barge-in: caller speech while a bot turn is thinking, speaking or still playing aborts the LLM, cancels
 * the speech turn, sends `clear` and stops sending in the same tick (no frame of that turn follows the
 * clear); marks of the dropped audio are ignored. The history keeps only what the caller heard.
 */
import { performance } from 'node:perf_hooks';
import { EventEmitter } from 'eventemitter3';
import type { Logger } from 'pino';
import type WebSocket from 'ws';
import { Framer } from '../audio/framer.js';
import { decodeMulaw, MULAW_SILENCE } from '../audio/mulaw.js';
import { planFormat } from '../audio/planner.js';
import { sleep } from '../client/http.js';
import type { SpeechSession } from '../client/speech-session.js';
import type { Turn } from '../client/speech/turn.js';
import type { TurnMetrics } from '../client/speech/turn-metrics.js';
import { silentLogger } from '../logger.js';
import { speak } from '../pipeline/speak.js';
import type { TokenSource } from '../pipeline/token-source.js';
import { SpeakingRate, TextAttributor } from './attribution.js';
import type { BotTurnKind, CallEndReason, CallStartEvent, TwilioCallEvents } from './events.js';
import { FramePacer, type PacerOptions } from './pacer.js';
import { PlayoutTracker } from './playout.js';
import { parseTwilioMessage, TWILIO_AUDIO, type TwilioInbound, type TwilioOutbound } from './protocol.js';
import { leaseSession, type BridgeSpeech, type SessionLease } from './speech-lease.js';
import { EnergyVad, type EnergyVadOptions } from './vad.js';

/** One message of the conversation handed to the LLM. */
export interface BridgeChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** The bot's brain: the history so far (heard text only), the bot turn number, and an abort signal. */
export type BridgeLlm = (history: readonly BridgeChatMessage[], turn: number, signal: AbortSignal) => TokenSource;

/** Options of a {@link TwilioCall} (shared by every call of a bridge server). */
export interface TwilioCallOptions {
  speech: BridgeSpeech;
  llm: BridgeLlm;
  /**
   * Spoken when the stream starts (tags allowed); none when undefined. A function picks it per call, e.g.
   * from the TwiML `<Parameter>`s in `start.customParameters`.
   */
  greeting?: string | ((start: CallStartEvent) => string | undefined) | undefined;
  /** First history message. */
  systemPrompt?: string | undefined;
  vad?: EnergyVadOptions | undefined;
  pacing?: PacerOptions | undefined;
  /**
   * The user message for an utterance. There is no speech recognition in the bridge: by default the
   * history gets a placeholder with the utterance length; plug your STT result in here.
   */
  describeUtterance?: ((utterance: { index: number; durationMs: number }) => string) | undefined;
  /** Messages kept after the system prompt. Default 40. */
  maxHistory?: number | undefined;
  logger?: Logger | undefined;
}

interface BotTurn {
  id: number;
  kind: BotTurnKind;
  abort: AbortController;
  attributor: TextAttributor;
  triggerAt: number;
  turn: Turn | undefined;
  metrics: TurnMetrics | undefined;
  firstAudioAt: number | undefined;
  lastFrameAt: number | undefined;
  lastMark: string | undefined;
  sentMs: number;
  audioDone: boolean;
  over: boolean;
}

/** Bytes queued on the Twilio socket before the bridge waits for it to drain (~15 s of media messages). */
const MAX_OUTBOUND_BYTES = 256 * 1024;

const TWILIO_PLAN = planFormat({ kind: 'twilio' });

/** The bridge of one Twilio Media Stream socket. Created by the bridge server for each connection. */
export class TwilioCall extends EventEmitter<TwilioCallEvents> {
  readonly #ws: WebSocket;
  readonly #options: TwilioCallOptions;
  readonly #vad: EnergyVad;
  readonly #pacer: FramePacer;
  readonly #tracker = new PlayoutTracker();
  readonly #rate = new SpeakingRate();
  readonly #closed = new AbortController();
  readonly #lease: Promise<SessionLease>;
  readonly #history: BridgeChatMessage[] = [];
  #log: Logger;
  #logText = true;
  #streamSid: string | undefined;
  #bot: BotTurn | undefined;
  #turns = 0;
  #utterances = 0;
  #speechStartAt = 0;
  #greeting: string | undefined;
  #ended = false;
  #pcm = new Int16Array(TWILIO_AUDIO.frameBytes);

  constructor(ws: WebSocket, options: TwilioCallOptions) {
    super();
    this.#ws = ws;
    this.#options = options;
    this.#vad = new EnergyVad(options.vad);
    this.#pacer = new FramePacer({ frameMs: TWILIO_AUDIO.frameMs, ...options.pacing });
    this.#log = (options.logger ?? silentLogger()).child({ component: 'twilio-call' });
    if (options.systemPrompt) this.#history.push({ role: 'system', content: options.systemPrompt });
    // Connect (or borrow) the speech session while Twilio is still sending `connected`/`start`.
    this.#lease = leaseSession(options.speech, TWILIO_PLAN.request, this.#closed.signal, this.#log);
    this.#lease.then(
      (lease) => {
        this.#logText = lease.session.config.enableLogging !== false;
      },
      (error: unknown) => this.#fail(error),
    );
    ws.on('message', (data: Buffer, isBinary: boolean) => {
      if (!isBinary) this.#onMessage(data.toString());
    });
    ws.once('close', () => void this.end('socket-closed'));
    ws.on('error', (error) => this.#log.debug({ err: error }, 'twilio socket error'));
  }

  /** Stream sid from `start` (undefined before it). */
  get streamSid(): string | undefined {
    return this.#streamSid;
  }

  /** The conversation so far: only text the caller heard is kept for the bot. */
  get history(): readonly BridgeChatMessage[] {
    return this.#history;
  }

  /** Echoed marks ignored because their audio was cleared (barge-in). */
  get ignoredMarks(): number {
    return this.#tracker.ignoredMarks;
  }

  /** Whether a bot turn is thinking, speaking or playing. */
  get botActive(): boolean {
    return this.#bot !== undefined && !this.#bot.over;
  }

  /** Ends the call: cancels the bot turn, releases the speech session, closes the socket. Idempotent. */
  async end(reason: CallEndReason): Promise<void> {
    if (this.#ended) return;
    this.#ended = true;
    const bot = this.#bot;
    if (bot && !bot.over) this.#finishTurn(bot, 'interrupted');
    this.#closed.abort();
    this.#log.info({ reason, turns: this.#turns }, 'call ended');
    if (this.#ws.readyState === this.#ws.OPEN) this.#ws.close(1000);
    const lease = await this.#lease.catch(() => undefined);
    await lease?.release().catch((error: unknown) => this.#log.warn({ err: error }, 'session release failed'));
    this.emit('end', reason);
    this.removeAllListeners();
  }

  #onMessage(frame: string): void {
    const message = parseTwilioMessage(frame);
    if (!message) {
      this.#log.debug('unrecognized twilio frame');
      return;
    }
    this.#handle(message);
  }

  #handle(message: TwilioInbound): void {
    switch (message.event) {
      case 'connected':
        return;
      case 'start': {
        const { streamSid, callSid, customParameters } = message.start;
        this.#streamSid = message.streamSid ?? streamSid;
        this.#log = this.#log.child({ callSid, streamSid: this.#streamSid });
        this.#log.info('call started');
        const start: CallStartEvent = { streamSid: this.#streamSid, callSid, customParameters: customParameters ?? {} };
        this.emit('start', start);
        const { greeting } = this.#options;
        this.#greeting = typeof greeting === 'function' ? greeting(start) : greeting;
        if (this.#greeting) this.#startTurn('greeting', performance.now());
        return;
      }
      case 'media':
        if (message.media.track === undefined || message.media.track === 'inbound') this.#onAudio(message.media.payload);
        return;
      case 'mark':
        this.#onMark(message.mark.name);
        return;
      case 'dtmf':
        this.#log.info({ digit: message.dtmf.digit }, 'dtmf');
        this.emit('dtmf', message.dtmf.digit);
        return;
      case 'stop':
        void this.end('stop');
        return;
    }
  }

  #onAudio(payload: string): void {
    const bytes = Buffer.from(payload, 'base64');
    if (bytes.length !== this.#pcm.length) this.#pcm = new Int16Array(bytes.length);
    const event = this.#vad.push(decodeMulaw(bytes, this.#pcm), TWILIO_AUDIO.sampleRate);
    if (event === 'speech-start') this.#onSpeechStart();
    else if (event === 'speech-end') this.#onSpeechEnd();
  }

  #onSpeechStart(): void {
    const at = performance.now();
    this.#speechStartAt = at;
    this.emit('speech-start', at);
    const bot = this.#bot;
    if (bot && !bot.over) this.#bargeIn(bot, at);
  }

  /** Stops `bot` now: clear, abort, settle. Everything runs in this tick, so no frame of the turn follows the clear. */
  #bargeIn(bot: BotTurn, at: number): void {
    const sentAudio = bot.firstAudioAt !== undefined;
    bot.over = true;
    if (sentAudio) this.#send({ event: 'clear', streamSid: this.#streamSid ?? '' });
    const clearAt = performance.now();
    bot.abort.abort();
    const report = this.#finishTurn(bot, 'interrupted');
    this.#log.info({ turn: bot.id, heardMs: report.heardMs, ...(this.#logText ? { heard: report.heardText } : {}) }, 'barge-in');
    this.emit('barge-in', {
      turn: bot.id,
      kind: bot.kind,
      speechStartToClearMs: sentAudio ? clearAt - at : undefined,
      speechStartToLastFrameMs: Math.max(0, (bot.lastFrameAt ?? at) - at),
      heardText: report.heardText,
      unheardText: report.unheardText,
      heardMs: report.heardMs,
    });
  }

  #onSpeechEnd(): void {
    const at = performance.now();
    const durationMs = at - this.#speechStartAt;
    this.emit('speech-end', durationMs);
    const index = this.#utterances++;
    const describe = this.#options.describeUtterance ?? ((u) => `(the caller spoke for ${(u.durationMs / 1000).toFixed(1)} s)`);
    this.#remember({ role: 'user', content: describe({ index, durationMs }) });
    this.#startTurn('reply', at);
  }

  #onMark(name: string): void {
    const segment = this.#tracker.onMark(name);
    const bot = this.#bot;
    if (segment && bot && !bot.over && bot.audioDone && segment.mark === bot.lastMark) this.#finishTurn(bot, 'played');
  }

  #startTurn(kind: BotTurnKind, triggerAt: number): void {
    if (this.#ended) return;
    // Never two bot turns at once (speech-start normally stopped the previous one already).
    const previous = this.#bot;
    if (previous && !previous.over) this.#bargeIn(previous, triggerAt);
    const bot: BotTurn = {
      id: ++this.#turns,
      kind,
      abort: new AbortController(),
      attributor: new TextAttributor(this.#rate.msPerChar),
      triggerAt,
      turn: undefined,
      metrics: undefined,
      firstAudioAt: undefined,
      lastFrameAt: undefined,
      lastMark: undefined,
      sentMs: 0,
      audioDone: false,
      over: false,
    };
    this.#bot = bot;
    this.#pacer.reset();
    this.#runTurn(bot).catch((error: unknown) => {
      if (bot.over) return;
      this.#log.warn({ turn: bot.id, err: error }, 'bot turn failed');
      this.emit('error', error instanceof Error ? error : new Error(String(error)));
      this.#finishTurn(bot, 'failed');
    });
  }

  async #runTurn(bot: BotTurn): Promise<void> {
    const { session } = await this.#lease;
    if (bot.over) return;
    const signal = bot.abort.signal;
    const turn = session.turn({ signal });
    bot.turn = turn;
    turn.done.then(
      (metrics) => (bot.metrics = metrics),
      () => {},
    );
    const source = bot.kind === 'greeting' ? (this.#greeting ?? '') : this.#options.llm([...this.#history], bot.id, signal);
    const writing = this.#write(bot, turn, session, source);
    writing.catch(() => {});
    await this.#play(bot, turn);
    await writing;
    if (bot.over) return;
    bot.audioDone = true;
    // Everything sent was already echoed as played (or nothing was sent): the turn is over now.
    if (!this.#tracker.pending) this.#finishTurn(bot, 'played');
  }

  /** Pipes the token source through the coalescer into the speech turn, noting the spoken text. */
  async #write(bot: BotTurn, turn: Turn, session: SpeechSession, source: TokenSource): Promise<void> {
    try {
      for await (const frame of speak(source, { config: session.config, signal: bot.abort.signal, until: turn.done, onFirstToken: (at) => turn.markFirstToken(at) })) {
        if (turn.state !== 'open') return;
        turn.write(frame.text);
        for (const segment of frame.segments) bot.attributor.write(segment.text);
      }
      turn.end();
    } catch (error) {
      if (bot.over) return;
      await turn.cancel();
      throw error;
    }
  }

  /** Frames, paces, sends and marks the turn's audio. */
  async #play(bot: BotTurn, turn: Turn): Promise<void> {
    const framer = new Framer<Uint8Array>(TWILIO_AUDIO.frameBytes, (n) => new Uint8Array(n));
    for await (const chunk of turn.audio()) {
      if (bot.over) return;
      const frames = framer.push(chunk.data);
      if (chunk.isFinal) {
        const tail = framer.flush(MULAW_SILENCE);
        if (tail) frames.push(tail);
      }
      for (const frame of frames) {
        try {
          await this.#pacer.ready(bot.abort.signal);
          // A Twilio socket that does not drain (unpaced mode, slow link) holds the turn back instead of buffering without end.
          while (this.#ws.bufferedAmount > MAX_OUTBOUND_BYTES) await sleep(TWILIO_AUDIO.frameMs, bot.abort.signal);
        } catch {
          return;
        }
        if (bot.over) return;
        this.#sendMedia(bot, frame);
      }
      const ms = frames.length * TWILIO_AUDIO.frameMs;
      if (ms === 0 && !chunk.isFinal) continue;
      const mark = this.#tracker.add(bot.attributor.take(ms, chunk.isFinal), ms);
      bot.lastMark = mark;
      this.#send({ event: 'mark', streamSid: this.#streamSid ?? '', mark: { name: mark } });
    }
  }

  #sendMedia(bot: BotTurn, frame: Uint8Array): void {
    this.#send({ event: 'media', streamSid: this.#streamSid ?? '', media: { payload: Buffer.from(frame.buffer, frame.byteOffset, frame.byteLength).toString('base64') } });
    this.#pacer.sent();
    const now = performance.now();
    bot.lastFrameAt = now;
    bot.sentMs += TWILIO_AUDIO.frameMs;
    if (bot.firstAudioAt === undefined) {
      bot.firstAudioAt = now;
      const ttfaMs = now - bot.triggerAt;
      this.#log.debug({ turn: bot.id, ttfaMs }, 'first audio');
      this.emit('first-audio', { turn: bot.id, kind: bot.kind, ttfaMs });
    }
  }

  /** Closes a bot turn: settles the playout ledger, keeps the heard text in the history, reports. */
  #finishTurn(bot: BotTurn, outcome: 'played' | 'interrupted' | 'failed'): ReturnType<PlayoutTracker['settle']> {
    bot.over = true;
    bot.abort.abort();
    if (this.#bot === bot) this.#pacer.reset();
    const report = this.#tracker.settle();
    // Text generated but never sent as audio was not heard either.
    const unsent = bot.attributor.take(0, true);
    const unheardText = [report.unheardText, unsent].join(' ').replace(/\s+/g, ' ').trim();
    if (outcome === 'played') this.#rate.observe(bot.attributor.audioMs, bot.attributor.text.length);
    if (report.heardText) this.#remember({ role: 'assistant', content: report.heardText });
    this.#log.info({ turn: bot.id, outcome, sentMs: bot.sentMs, heardMs: report.heardMs }, 'bot turn ended');
    this.emit('turn-end', {
      turn: bot.id,
      kind: bot.kind,
      outcome,
      heardText: report.heardText,
      unheardText,
      heardMs: report.heardMs,
      sentMs: bot.sentMs,
      ttfaMs: bot.firstAudioAt === undefined ? undefined : bot.firstAudioAt - bot.triggerAt,
      metrics: bot.metrics,
    });
    return { ...report, unheardText };
  }

  #remember(message: BridgeChatMessage): void {
    this.#history.push(message);
    const keep = this.#options.maxHistory ?? 40;
    const system = this.#history[0]?.role === 'system' ? 1 : 0;
    if (this.#history.length - system > keep) this.#history.splice(system, this.#history.length - system - keep);
  }

  #send(message: TwilioOutbound): void {
    if (this.#ws.readyState === this.#ws.OPEN) this.#ws.send(JSON.stringify(message));
  }

  #fail(error: unknown): void {
    if (this.#ended) return;
    this.#log.error({ err: error }, 'speech session unavailable');
    this.emit('error', error instanceof Error ? error : new Error(String(error)));
    void this.end('speech-unavailable');
  }
}
