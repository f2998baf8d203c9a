/**
 * One call from an audio file to what the voice bank and the gender classifier need: decode, mix to mono,
 * track the pitch over voiced frames, and say why a recording cannot be used as a speech sample.
 */
import { decodeAudio, type AudioFileFormat, type DecodeAudioOptions } from './decode.js';
import { trackPitch } from './pitch-track.js';

/** Measurements of one speech recording. */
export interface VoiceAnalysis {
  format: AudioFileFormat;
  sampleRate: number;
  channels: number;
  durationSeconds: number;
  /** Median F0 of the voiced frames, Hz; undefined when none is voiced. */
  medianF0Hz: number | undefined;
  voicedSeconds: number;
  /** Level of the loudest 10 ms-hop frame (low-passed at 1 kHz), dBFS. */
  peakFrameDbfs: number;
}

/** Loudest-frame level below which a recording counts as silent, dBFS. */
export const SILENCE_DBFS = -50;
/** Least voiced speech a recording must hold, seconds. */
export const MIN_VOICED_SECONDS = 0.1;

/** Decodes `bytes` and measures its pitch. Throws `InvalidAudioError` when it cannot be decoded. */
export async function analyzeVoice(bytes: Uint8Array, options: DecodeAudioOptions = {}): Promise<VoiceAnalysis> {
  const audio = await decodeAudio(bytes, options);
  const track = trackPitch(audio.samples, audio.sampleRate);
  return {
    format: audio.format,
    sampleRate: audio.sampleRate,
    channels: audio.channels,
    durationSeconds: audio.durationSeconds,
    medianF0Hz: track.medianF0Hz,
    voicedSeconds: track.voicedSeconds,
    peakFrameDbfs: track.peakFrameDbfs,
  };
}

/** Why `analysis` is not usable speech (too short, silent, no voiced frames), or undefined when it is. */
export function speechProblem(analysis: VoiceAnalysis, minSeconds = 0): string | undefined {
  if (analysis.durationSeconds < minSeconds) {
    return `audio is too short: ${analysis.durationSeconds.toFixed(2)} s (at least ${minSeconds} s of speech is needed)`;
  }
  if (!(analysis.peakFrameDbfs >= SILENCE_DBFS)) {
    const level = Number.isFinite(analysis.peakFrameDbfs) ? `${analysis.peakFrameDbfs.toFixed(1)} dBFS` : 'digital silence';
    return `audio is silent (loudest passage ${level})`;
  }
  if (analysis.medianF0Hz === undefined || analysis.voicedSeconds < MIN_VOICED_SECONDS) {
    return 'no voiced speech found in the audio (no periodic frames above the noise floor)';
  }
  return undefined;
}
