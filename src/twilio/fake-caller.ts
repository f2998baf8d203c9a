/**
 * `FakeTwilioCaller`: a scripted stand-in for Twilio's side of a Media Stream, for tests, load generators
 * and local development without a phone. It sends `connected`/`start`, caller audio (a loud tone for
 * speech, low noise for silence, 20 ms frames), `dtmf` and `stop`; it records what the bridge sends and
 * echoes marks the way Twilio does: once the audio before them has "played" (a modelled playout buffer),
 * and at once, as dropped, for every pending mark when a `clear` arrives.
 */
import { performance } from 'node:perf_hooks';
import WebSocket from 'ws';
import { encodeMulaw } from '../audio/mulaw.js';
import { sleep } from '../client/http.js';
import { TWILIO_AUDIO, type TwilioOutbound } from './protocol.js';

/** One second of caller audio as base64 mu-law frames: a 200 Hz tone (about -13 dBFS) and low noise (about -60 dBFS), each with noise from a fixed LCG. */
const CALLER_AUDIO = ((): { loud: string[]; quiet: string[] } => {
  let seed = 1;
  const make = (amp: number): string[] =>
    Array.from({ length: 50 }, (_, f) => {
      const pcm = new Int16Array(TWILIO_AUDIO.frameBytes);
      for (let i = 0; i < pcm.length; i++) {
        seed = (seed * 1103515245 + 12345) & 0x7fffffff;
        const noise = ((seed / 0x7fffffff) * 2 - 1) * 40;
        pcm[i] = Math.round(amp * Math.sin((2 * Math.PI * 200 * (f * pcm.length + i)) / TWILIO_AUDIO.sampleRate) + noise);
      }
      return Buffer.from(encodeMulaw(pcm)).toString('base64');
    });
  return { loud: make(8000), quiet: make(0) };
})();

/** What the caller received, in order. */
export type ReceivedEvent =
  | { type: 'media'; at: number; bytes: number; payload: Buffer }
  | { type: 'mark'; at: number; name: string }
  | { type: 'clear'; at: number };

/** Options of {@link FakeTwilioCaller.connect}. */
export interface FakeCallerOptions {
  streamSid?: string;
  callSid?: string;
  /** `start.customParameters` (TwiML `<Parameter>`s). */
  customParameters?: Record<string, string>;
  /** `realtime` echoes a mark when the audio before it has played; `instant` echoes on receipt. Default `realtime`. */
  playback?: 'realtime' | 'instant';
  /** Extra delay before received audio starts to play (a jitter buffer): marks are echoed this much later. Default 0. */
  jitterBufferMs?: number;
  /** Caller frames are sent every 20 ms (true) or back to back (false). Default true. */
  realtime?: boolean;
  /** Keep every received message (with media payloads) in `received`; off for load generation and soaks. Default true. */
  record?: boolean;
}

/** A fake Twilio Media Streams client. */
export class FakeTwilioCaller {
  /** Everything received, in order, when `record` is on (unbounded: turn it off for long calls). */
  readonly received: ReceivedEvent[] = [];
  readonly streamSid: string;
  readonly #ws: WebSocket;
  readonly #options: FakeCallerOptions;
  readonly #listeners = new Set<(event: ReceivedEvent) => void>();
  #playEnd = 0;
  #pendingMarks = new Map<string, NodeJS.Timeout>();
  #seq = 0;
  /** Media frames received that were not exactly 160 bytes. */
  badFrames = 0;
  /** Marks echoed back to the bridge. */
  echoedMarks = 0;
  /** Media frames received. */
  mediaCount = 0;

  private constructor(ws: WebSocket, options: FakeCallerOptions) {
    this.#ws = ws;
    this.#options = options;
    this.streamSid = options.streamSid ?? `MZ${Math.random().toString(16).slice(2).padEnd(32, '0')}`;
    ws.on('message', (data: Buffer) => this.#onMessage(data.toString()));
  }

  /** Opens the stream socket and sends `connected` and `start`. */
  static async connect(url: string, options: FakeCallerOptions = {}): Promise<FakeTwilioCaller> {
    const ws = new WebSocket(url);
    await new Promise<void>((resolve, reject) => {
      ws.once('open', resolve);
      ws.once('error', reject);
    });
    const caller = new FakeTwilioCaller(ws, options);
    caller.#send({ event: 'connected', protocol: 'Call', version: '1.0.0' });
    caller.#send({
      event: 'start',
      sequenceNumber: String(++caller.#seq),
      streamSid: caller.streamSid,
      start: {
        streamSid: caller.streamSid,
        accountSid: 'AC00000000000000000000000000000000',
        callSid: options.callSid ?? 'CA00000000000000000000000000000000',
        tracks: ['inbound'],
        customParameters: options.customParameters ?? {},
        mediaFormat: { encoding: TWILIO_AUDIO.encoding, sampleRate: TWILIO_AUDIO.sampleRate, channels: 1 },
      },
    });
    return caller;
  }


  /** Marks received whose echo is still waiting for their audio to play. */
  get pendingMarks(): number {
    return this.#pendingMarks.size;
  }

  /** Calls `listener` for every message received from now on; returns an unsubscribe function. */
  onReceive(listener: (event: ReceivedEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Resolves with the first received event matching `predicate` (from now on, or already received with `past`). */
  waitFor(predicate: (event: ReceivedEvent) => boolean, options: { past?: boolean; timeoutMs?: number } = {}): Promise<ReceivedEvent> {
    const found = options.past ? this.received.find(predicate) : undefined;
    if (found) return Promise.resolve(found);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        off();
        reject(new Error('timed out waiting for a Twilio message'));
      }, options.timeoutMs ?? 10_000);
      const off = this.onReceive((event) => {
        if (!predicate(event)) return;
        clearTimeout(timer);
        off();
        resolve(event);
      });
    });
  }

  /** Sends `ms` of caller speech (a loud 200 Hz tone), 20 ms per frame. */
  speak(ms: number, signal?: AbortSignal): Promise<void> {
    return this.#sendFrames(ms, true, signal);
  }

  /** Sends `ms` of near-silence (low noise), 20 ms per frame. */
  silence(ms: number, signal?: AbortSignal): Promise<void> {
    return this.#sendFrames(ms, false, signal);
  }

  /** Sends a DTMF digit. */
  dtmf(digit: string): void {
    this.#send({ event: 'dtmf', sequenceNumber: String(++this.#seq), streamSid: this.streamSid, dtmf: { track: 'inbound_track', digit } });
  }

  /** Sends `stop` and closes the socket. */
  async stop(): Promise<void> {
    this.#send({ event: 'stop', sequenceNumber: String(++this.#seq), streamSid: this.streamSid, stop: { accountSid: 'AC0', callSid: 'CA0' } });
    await this.close();
  }

  /** Closes the socket (as a dropped call would) and cancels pending mark echoes. */
  async close(): Promise<void> {
    for (const timer of this.#pendingMarks.values()) clearTimeout(timer);
    this.#pendingMarks.clear();
    if (this.#ws.readyState === WebSocket.CLOSED) return;
    await new Promise<void>((resolve) => {
      this.#ws.once('close', () => resolve());
      this.#ws.close(1000);
    });
  }

  async #sendFrames(ms: number, loud: boolean, signal: AbortSignal | undefined): Promise<void> {
    const frames = Math.ceil(ms / TWILIO_AUDIO.frameMs);
    const start = performance.now();
    for (let f = 0; f < frames; f++) {
      if (this.#ws.readyState !== WebSocket.OPEN) return;
      this.#sendAudio(loud, f);
      if (this.#options.realtime !== false) {
        const wait = start + (f + 1) * TWILIO_AUDIO.frameMs - performance.now();
        if (wait > 0) await sleep(wait, signal);
      } else if (f % 25 === 24) await new Promise((r) => setImmediate(r));
    }
  }

  #sendAudio(loud: boolean, f: number): void {
    const seq = ++this.#seq;
    const cycle = loud ? CALLER_AUDIO.loud : CALLER_AUDIO.quiet;
    this.#send({
      event: 'media',
      sequenceNumber: String(seq),
      streamSid: this.streamSid,
      media: { track: 'inbound', chunk: String(seq), timestamp: String(seq * TWILIO_AUDIO.frameMs), payload: cycle[f % cycle.length] as string },
    });
  }

  #onMessage(text: string): void {
    const message = JSON.parse(text) as TwilioOutbound;
    const at = performance.now();
    let event: ReceivedEvent;
    switch (message.event) {
      case 'media': {
        const payload = Buffer.from(message.media.payload, 'base64');
        this.mediaCount++;
        if (payload.length !== TWILIO_AUDIO.frameBytes) this.badFrames++;
        this.#playEnd = Math.max(this.#playEnd, at) + (payload.length / TWILIO_AUDIO.frameBytes) * TWILIO_AUDIO.frameMs;
        event = { type: 'media', at, bytes: payload.length, payload };
        break;
      }
      case 'mark':
        event = { type: 'mark', at, name: message.mark.name };
        this.#scheduleEcho(message.mark.name, at);
        break;
      case 'clear':
        event = { type: 'clear', at };
        this.#playEnd = at;
        // Twilio drops its buffer and echoes the marks that were waiting for it.
        for (const [name, timer] of this.#pendingMarks) {
          clearTimeout(timer);
          this.#echo(name);
        }
        this.#pendingMarks.clear();
        break;
    }
    if (this.#options.record !== false) this.received.push(event);
    for (const listener of this.#listeners) listener(event);
  }

  #scheduleEcho(name: string, at: number): void {
    const wait = this.#options.playback === 'instant' ? 0 : this.#playEnd + (this.#options.jitterBufferMs ?? 0) - at;
    if (wait <= 0) {
      this.#echo(name);
      return;
    }
    this.#pendingMarks.set(
      name,
      setTimeout(() => {
        this.#pendingMarks.delete(name);
        this.#echo(name);
      }, wait),
    );
  }

  #echo(name: string): void {
    this.echoedMarks++;
    this.#send({ event: 'mark', sequenceNumber: String(++this.#seq), streamSid: this.streamSid, mark: { name } });
  }

  #send(message: object): void {
    if (this.#ws.readyState === WebSocket.OPEN) this.#ws.send(JSON.stringify(message));
  }
}
