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
export { VoicesClient, type VoiceUploadInput } from './client/voices.js';
export { GenderClient, type GenderClassifyInput } from './client/gender.js';
export { UsageClient, type UsageByModelQuery } from './client/usage.js';
export { UsageMeter, printUsageTable, type UsageMeterOptions, type UsageSession } from './client/usage-meter.js';
export type { VoicePrompt, VoiceUploadRequest, VoiceUpdateRequest, VoiceGender } from './protocol/voices.js';
export type { GenderClassificationResponse } from './protocol/gender.js';
export type { UsageByModelReport, UsageByModelItem, UsageDailyReport, UsageDailyItem, ConnectionCounts } from './protocol/usage.js';
export { DubbingClient, DubbingJobFailedError, type DubbingProgress, type WaitForOptions, type DubbingAdvanceResult } from './client/dubbing.js';
export type { DubbingJobRequest, DubbingJobStatus, DubbingJobStatusName, DubbingJobList, DubbingJobUpdate, RedubbingRequest, DubbingSegment } from './protocol/dubbing.js';
