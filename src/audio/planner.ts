/**
 * Format planning: given where the audio goes, choose the `format` and `sampleRate` to request from the
 * speech service so that the service does the conversion whenever it can, and build the (often empty) chain
 * of client-side adapters from the service's chunk bytes to what the sink takes.
 */
import { InvalidArgumentError } from '../errors.js';
import { SAMPLE_RATES, type AudioFormat, type SampleRate } from '../protocol/speech.js';
import { MULAW_SILENCE } from './mulaw.js';
import { oggDemux, opusEncode } from './opus-stream.js';
import { frame, pcmToS16le, pcmToWav, pipe, resample, s16leToPcm, type AudioTransform } from './transforms.js';

/** Where the audio goes. */
export type AudioSink =
  /** Twilio Media Streams: mu-law 8 kHz mono in 160-byte (20 ms) frames. */
  | { kind: 'twilio' }
  /**
   * Discord voice / WebRTC: one Opus packet per 20 ms at 48 kHz. By default the service encodes Opus and the
   * client only lifts the packets out of the Ogg stream; `encodeLocally` requests PCM and encodes here instead.
   */
  | { kind: 'opus'; encodeLocally?: boolean }
  /** Raw little-endian 16-bit mono PCM at any rate; `frameMs` cuts it into fixed frames. */
  | { kind: 'pcm'; sampleRate: number; frameMs?: number }
  /** A file: one WAV file (one header), an MP3 stream, or an Ogg/Opus file. */
  | { kind: 'file'; container: 'wav' | 'mp3' | 'ogg'; sampleRate?: number };

/** A plan: what to ask the service for and how to adapt what it sends. */
export interface FormatPlan {
  /** `format` and `sampleRate` for `stream-config`. */
  request: { format: AudioFormat; sampleRate: SampleRate };
  /** The client-side steps, in order, for logs and tests (empty when the service output goes straight to the sink). */
  steps: string[];
  /** Makes a fresh adapter from the service's audio bytes (chunks of one turn, in order) to sink units. */
  adapter(): AudioTransform<Uint8Array, Uint8Array>;
}

const identity: AudioTransform<Uint8Array, Uint8Array> = (source) => source;

/** Chooses request format, rate and client-side adapters for `sink`. */
export function planFormat(sink: AudioSink): FormatPlan {
  switch (sink.kind) {
    case 'twilio':
      return {
        request: { format: 'mulaw', sampleRate: 8000 },
        steps: ['frame 160 B (pad with mu-law silence)'],
        adapter: () => frame(160, { pad: MULAW_SILENCE }),
      };
    case 'opus':
      if (sink.encodeLocally) {
        return {
          request: { format: 's16le', sampleRate: 48000 },
          steps: ['s16le → PCM', 'Opus encode 20 ms'],
          adapter: () => (source) => pipe(source, s16leToPcm(48000), opusEncode()),
        };
      }
      return { request: { format: 'opus', sampleRate: 48000 }, steps: ['Ogg demux → Opus packets'], adapter: () => oggDemux() };
    case 'pcm':
      return planPcm(sink.sampleRate, sink.frameMs);
    case 'file':
      return planFile(sink.container, sink.sampleRate ?? 48000);
  }
}

/** The service rate to request for a sink at `rate`: the rate itself when offered, else the next higher one (else 48 kHz). */
function serviceRateFor(rate: number): SampleRate {
  return SAMPLE_RATES.find((candidate) => candidate >= rate) ?? 48000;
}

function checkRate(rate: number): void {
  if (!Number.isInteger(rate) || rate <= 0) throw new InvalidArgumentError(`sampleRate must be a positive integer, got ${rate}`);
}

function planPcm(rate: number, frameMs: number | undefined): FormatPlan {
  checkRate(rate);
  const requested = serviceRateFor(rate);
  const steps: string[] = [];
  let convert = identity;
  if (requested !== rate) {
    steps.push('s16le → PCM', `resample ${requested} → ${rate} Hz`, 'PCM → s16le');
    convert = (source) => pipe(source, s16leToPcm(requested), resample(rate), pcmToS16le());
  }
  let adapter = convert;
  if (frameMs !== undefined) {
    const frameBytes = (rate * frameMs * 2) / 1000;
    if (!Number.isInteger(frameBytes) || frameBytes <= 0) throw new InvalidArgumentError(`${frameMs} ms is not a whole number of samples at ${rate} Hz`);
    steps.push(`frame ${frameBytes} B (pad with silence)`);
    adapter = (source) => pipe(convert(source), frame(frameBytes, { pad: 0 }));
  }
  return { request: { format: 's16le', sampleRate: requested }, steps, adapter: () => adapter };
}

function planFile(container: 'wav' | 'mp3' | 'ogg', rate: number): FormatPlan {
  checkRate(rate);
  switch (container) {
    case 'wav': {
      // One header for the whole file: ask for bare PCM and write the header here.
      const requested = serviceRateFor(rate);
      const resampling = requested !== rate;
      return {
        request: { format: 's16le', sampleRate: requested },
        steps: ['s16le → PCM', ...(resampling ? [`resample ${requested} → ${rate} Hz`] : []), 'WAV header + PCM'],
        adapter: () => (source) => (resampling ? pipe(source, s16leToPcm(requested), resample(rate), pcmToWav()) : pipe(source, s16leToPcm(requested), pcmToWav())),
      };
    }
    case 'mp3':
      return { request: { format: 'mp3', sampleRate: serviceRateFor(rate) }, steps: [], adapter: () => identity };
    case 'ogg':
      return { request: { format: 'opus', sampleRate: serviceRateFor(rate) }, steps: [], adapter: () => identity };
  }
}
