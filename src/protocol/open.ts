/**
 * Wire shapes of the complete-text socket `/open` (one `text-to-speech` request per message) and of
 * `POST /api/v1/tts`. Shared by client and server; no I/O.
 */
import { z } from 'zod';

/** Error types of `/open` failures. */
export const OPEN_ERROR_TYPES = ['RateLimit', 'MaxExceeded', 'InsufficientCredits', 'InvalidInput'] as const;
/** One of {@link OPEN_ERROR_TYPES}. */
export type OpenErrorType = (typeof OPEN_ERROR_TYPES)[number];

/** Limits of the reference service's `/open` socket. */
export const OPEN_LIMITS = {
  /** Longest `targetText`, characters. */
  maxTextChars: 10_000,
  /** Requests in flight at once on one socket. */
  maxConcurrentRequests: 8,
} as const;

/** A `text-to-speech` request on `/open`. `format`/`sampleRate` follow the speech socket's rules. */
export const openRequestSchema = z
  .object({
    action: z.literal('text-to-speech'),
    generationId: z.string().min(1),
    targetText: z.string(),
    model: z.string().min(1),
    locale: z.string().optional(),
    voicePromptId: z.string().optional(),
    format: z.string().optional(),
    sampleRate: z.number().int().optional(),
  })
  .loose();
/** A `text-to-speech` request. */
export type OpenRequest = z.infer<typeof openRequestSchema>;

/** Acknowledgement (empty data) and audio chunks of a request. */
export interface OpenChunkMessage {
  generationId: string;
  /** Absent on the acknowledgement. */
  index?: number;
  /** Base64 audio; the empty string on the acknowledgement. */
  data: string;
  isFinished: boolean;
}

/** A failed request. */
export interface OpenErrorMessage {
  error: string;
  errorType: OpenErrorType;
  generationId?: string;
}

/** Body of `POST /api/v1/tts` (raw audio bytes come back). */
export interface TtsRequest {
  model: string;
  targetText: string;
  locale?: string;
  voicePromptId?: string;
  format?: string;
  sampleRate?: number;
}
