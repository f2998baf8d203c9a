/**
 * Twilio Media Streams wire messages (bidirectional streams). Inbound from Twilio: `connected`, `start`,
 * `media`, `dtmf`, `mark`, `stop`; outbound to Twilio: `media`, `mark`, `clear`. Audio is base64 mu-law 8 kHz.
 */

/** First message on the socket. */
export interface TwilioConnected {
  event: 'connected';
  protocol: string;
  version: string;
}
/** Stream metadata, once after `connected`. */
export interface TwilioStart {
  event: 'start';
  sequenceNumber: string;
  streamSid: string;
  start: {
    streamSid: string;
    accountSid: string;
    callSid: string;
    tracks: string[];
    customParameters: Record<string, string>;
    mediaFormat: { encoding: string; sampleRate: number; channels: number };
  };
}
/** One frame of caller audio (base64 mu-law, normally 20 ms = 160 bytes). */
export interface TwilioMedia {
  event: 'media';
  sequenceNumber: string;
  streamSid: string;
  media: { track: string; chunk: string; timestamp: string; payload: string };
}
/** Echo of a mark we sent: the audio before it finished playing (or was cleared). */
export interface TwilioMark {
  event: 'mark';
  sequenceNumber: string;
  streamSid: string;
  mark: { name: string };
}
/** A DTMF digit from the caller. */
export interface TwilioDtmf {
  event: 'dtmf';
  sequenceNumber: string;
  streamSid: string;
  dtmf: { track: string; digit: string };
}
/** End of the stream. */
export interface TwilioStop {
  event: 'stop';
  sequenceNumber: string;
  streamSid: string;
  stop: { accountSid: string; callSid: string };
}
/** Any message Twilio sends. */
export type TwilioInbound = TwilioConnected | TwilioStart | TwilioMedia | TwilioMark | TwilioDtmf | TwilioStop;

/** Audio for Twilio to play. */
export interface TwilioOutboundMedia {
  event: 'media';
  streamSid: string;
  media: { payload: string };
}
/** Asks Twilio to echo `name` once the audio sent before it has played. */
export interface TwilioOutboundMark {
  event: 'mark';
  streamSid: string;
  mark: { name: string };
}
/** Discards the audio Twilio has buffered (barge-in). */
export interface TwilioOutboundClear {
  event: 'clear';
  streamSid: string;
}
/** Any message we send to Twilio. */
export type TwilioOutbound = TwilioOutboundMedia | TwilioOutboundMark | TwilioOutboundClear;

/** The audio format of every Media Stream: mu-law, 8 kHz, mono, 20 ms frames of 160 bytes. */
export const TWILIO_AUDIO = { encoding: 'audio/x-mulaw', sampleRate: 8000, channels: 1, frameBytes: 160, frameMs: 20 } as const;

const EVENTS = new Set(['connected', 'start', 'media', 'mark', 'dtmf', 'stop']);

/** Parses a Twilio frame; returns undefined for anything that is not a known, well-formed event. */
export function parseTwilioMessage(frame: string): TwilioInbound | undefined {
  let raw: unknown;
  try {
    raw = JSON.parse(frame);
  } catch {
    return undefined;
  }
  if (!raw || typeof raw !== 'object') return undefined;
  const m = raw as Record<string, unknown>;
  if (typeof m.event !== 'string' || !EVENTS.has(m.event)) return undefined;
  const nested = m[m.event];
  if (m.event !== 'connected' && (typeof nested !== 'object' || nested === null)) return undefined;
  if (m.event === 'media' && typeof (nested as { payload?: unknown }).payload !== 'string') return undefined;
  if (m.event === 'mark' && typeof (nested as { name?: unknown }).name !== 'string') return undefined;
  return raw as TwilioInbound;
}
