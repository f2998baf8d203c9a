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
export { SpeechSession, type SpeechSessionOptions, type SpeechSessionEvents, type SessionState, type ReconnectOptions } from './client/speech-session.js';
export { Turn, type TurnOptions, type TurnState, type CancelResult } from './client/speech/turn.js';
export type { AudioChunk } from './client/speech/audio-chunk.js';
export { SessionError, GenerationError } from './client/speech/errors.js';
export { resolveSocketUrl, type Region, type SocketEndpointOptions } from './client/speech/endpoint.js';
export type { SocketAuth } from './client/speech/open-socket.js';
export { TURN_CHANNEL, SESSION_CHANNEL, type TurnMetrics, type TurnOutcome, type SessionLifecycleEvent } from './client/speech/turn-metrics.js';
export { SessionPool, PoolClosedError, PoolExhaustedError, type SessionPoolOptions, type SessionPoolEvents, type RemovalReason } from './client/pool.js';
export { speak, pipeTokens, type SpeakOptions, type PipeSummary } from './pipeline/speak.js';
export { FrameCoalescer, type SpeakFrame, type CoalescerOptions } from './pipeline/coalescer.js';
export { deltaText, type TokenSource, type TokenStreamItem, type ChatCompletionChunkLike, type ResponseStreamEventLike } from './pipeline/token-source.js';
export { OpenSpeechClient, type OpenSpeechClientOptions, type OpenSpeakRequest, type OpenSpeech, type OpenSpeechResult } from './client/speech/open-client.js';
export { LiveClient, type LiveCallOptions, type LiveListQuery } from './client/live.js';
export { CaptionsFollower, writeCaptions, type CaptionsFollowerOptions, type CaptionsFollowerStats, type FollowedCue } from './client/captions-follower.js';
export type { LiveService, LiveServiceConfig, LiveServiceList, LiveStatus, LiveVoicesResponse, LiveUpstreamError } from './protocol/live.js';
export type { CaptionsFrame } from './protocol/captions.js';
export { formatSrt, formatWebVtt, parseWebVtt, type VttCue } from './hls/webvtt.js';
export { TagScanner, TagInterpreter, openEmotionCatalog, classifyEmoji, emojiKey, FLAG_LOCALES, GLOBE_LOCALES, NEUTRAL_FACE, type ScanEvent, type TagScannerOptions, type ConfigTagAttributes, type VoiceState, type EmotionCatalog, type CatalogEmotion, type SpokenSegment, type EmojiKind } from './tags/index.js';
