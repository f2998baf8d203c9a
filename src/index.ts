/**
 * `voxpipe`: realtime voice-agent streaming middleware. Named exports only; audio transcoding lives in
 * `voxpipe/audio`, the reference service in `voxpipe/server`, wire shapes in `voxpipe/protocol`.
 */
export * from './errors.js';
export { HttpClient, type HttpClientOptions, type HttpRequest } from './client/http.js';
export {
  AUDIO_FORMATS,
  SAMPLE_RATES,
  STREAM_CONFIG_DEFAULTS,
  type AudioFormat,
  type SampleRate,
  type StreamConfig,
  type AudioChunkMessage,
} from './protocol/speech.js';
