/**
 * Renders spoken segments to encoded audio: resolve each segment's voice and emotion, synthesize at 48 kHz,
 * encode to the requested format and rate, and yield the bytes as they are produced. Shared by the speech
 * socket, the `/open` socket and `POST /api/v1/tts`.
 */
import { createAudioEncoder } from '../../audio/encoder.js';
import { SPEECH_ERRORS } from '../../protocol/speech.js';
import type { SpokenSegment } from '../../tags/index.js';
import type { VoiceDirectory } from '../context.js';
import type { SpeechSettings } from './settings.js';
import { voiceFor } from './settings.js';
import { SYNTH_SAMPLE_RATE, type Synthesizer } from './synth/synthesizer.js';

/** What {@link renderSegments} needs from the server. */
export interface RenderContext {
  synthesizer: Synthesizer;
  voices: VoiceDirectory;
  accountId: string;
}

/** One piece of encoded audio and the duration of audio it carries. */
export interface RenderedAudio {
  data: Buffer;
  audioMs: number;
}

/** A failure inside one generation (the worker-level error of the spec). */
export class GenerationFailure extends Error {}

/** Yields encoded audio for `segments` spoken with `settings`; stops promptly when `signal` aborts. */
export async function* renderSegments(
  segments: readonly SpokenSegment[],
  settings: SpeechSettings,
  ctx: RenderContext,
  signal: AbortSignal,
  options: { wavHeaderPerChunk?: boolean } = {},
): AsyncGenerator<RenderedAudio> {
  const encoder = createAudioEncoder({ format: settings.format, sampleRate: settings.sampleRate, wavHeaderPerChunk: options.wavHeaderPerChunk ?? true });
  for (const segment of segments) {
    if (signal.aborted) return;
    if (segment.text.trim() === '') continue;
    const resolved = voiceFor(settings, segment.state.voicePromptId, ctx.accountId, ctx.voices);
    if (!resolved) throw new GenerationFailure(SPEECH_ERRORS.voiceNotFound(segment.state.voicePromptId ?? settings.voicePromptId));
    const emotion = segment.state.emotion ? resolved.emotions.find((e) => e.name.toLowerCase() === segment.state.emotion) : resolved.emotion;
    const locale = segment.state.locale ?? resolved.voice.locale;
    const blocks = ctx.synthesizer.synthesize({ text: segment.text, locale, voice: resolved.voice, emotion, signal });
    for await (const pcm of blocks) {
      if (signal.aborted) return;
      const audioMs = (pcm.length / SYNTH_SAMPLE_RATE) * 1000;
      const out = encoder.encode(pcm);
      if (out.length > 0) yield { data: out.length === 1 ? (out[0] as Buffer) : Buffer.concat(out), audioMs };
    }
  }
  if (signal.aborted) return;
  const tail = encoder.flush();
  if (tail.length > 0) yield { data: Buffer.concat(tail), audioMs: 0 };
}
