/** Decoded audio as the analysis code sees it: float channels (−1…1) at one sample rate. */

/** Decoded audio: one Float32Array per channel, all the same length. */
export interface PcmAudio {
  sampleRate: number;
  channelData: Float32Array[];
}

/** Averages the channels of `audio` into one. */
export function mixToMono(audio: PcmAudio): Float32Array {
  const [first, ...rest] = audio.channelData;
  if (!first) return new Float32Array(0);
  if (rest.length === 0) return first;
  const out = Float32Array.from(first);
  for (const channel of rest) for (let i = 0; i < out.length; i++) out[i] = (out[i] ?? 0) + (channel[i] ?? 0);
  const scale = 1 / audio.channelData.length;
  for (let i = 0; i < out.length; i++) out[i] = (out[i] ?? 0) * scale;
  return out;
}
