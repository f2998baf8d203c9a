/** Typed events of a Twilio call bridge (eventemitter3), with the latency figures each one carries. */
import type { TurnMetrics } from '../client/speech/turn-metrics.js';

/** What started a bot turn. */
export type BotTurnKind = 'greeting' | 'reply';

/** The stream began (`start`). */
export interface CallStartEvent {
  streamSid: string;
  callSid: string;
  customParameters: Record<string, string>;
}

/** The first frame of a bot turn went out. */
export interface FirstAudioEvent {
  /** Bot turn number within the call, from 1. */
  turn: number;
  kind: BotTurnKind;
  /** Caller speech-end (reply) or greeting start → first media frame sent to Twilio. */
  ttfaMs: number;
}

/** The caller spoke over the bot: the turn was cancelled and Twilio's buffer cleared. */
export interface BargeInEvent {
  turn: number;
  kind: BotTurnKind;
  /** VAD speech-start → `clear` sent (undefined when no audio had been sent yet, so no clear was needed). */
  speechStartToClearMs: number | undefined;
  /** VAD speech-start → last media frame of the turn sent (0 when the last frame preceded the speech-start). */
  speechStartToLastFrameMs: number;
  /** Text the caller heard (marks echoed before the clear), by the attribution of `attribution.ts`. */
  heardText: string;
  /** Text sent or generated but not heard. */
  unheardText: string;
  heardMs: number;
}

/** A bot turn is over: played to the end, interrupted, or failed. */
export interface BotTurnEndEvent {
  turn: number;
  kind: BotTurnKind;
  outcome: 'played' | 'interrupted' | 'failed';
  heardText: string;
  unheardText: string;
  heardMs: number;
  /** Audio sent to Twilio for the turn. */
  sentMs: number;
  ttfaMs: number | undefined;
  /** The speech turn's own metrics (time to first audio from the first token, end to final, ...), when it ran. */
  metrics: TurnMetrics | undefined;
}

/** Why a call ended. */
export type CallEndReason = 'stop' | 'socket-closed' | 'server-closed' | 'speech-unavailable';

/** Events of a {@link TwilioCall}. */
export interface TwilioCallEvents {
  start: (event: CallStartEvent) => void;
  /** Caller speech detected by the VAD (`performance.now()` of detection). */
  'speech-start': (at: number) => void;
  /** Caller speech ended after `durationMs`. */
  'speech-end': (durationMs: number) => void;
  'first-audio': (event: FirstAudioEvent) => void;
  'barge-in': (event: BargeInEvent) => void;
  'turn-end': (event: BotTurnEndEvent) => void;
  /** A DTMF digit from the caller. */
  dtmf: (digit: string) => void;
  /** A failure that did not end the call (LLM or speech errors end only the bot turn). */
  error: (error: Error) => void;
  /** The call is over and every resource released. */
  end: (reason: CallEndReason) => void;
}
