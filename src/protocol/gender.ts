/**
 * Wire shapes of speaker gender classification (`POST /api/v1/gender-detection/classify`), with the field
 * names of the reference OpenAPI (`model.GenderClassificationRequest`, `model.GenderClassificationResponse`,
 * `model.ErrorResponse`). Shared by client and server; no I/O.
 */
import { z } from 'zod';

/** Body of the classify request: `audio_url` (http, https or s3) and/or `audio_base64`. */
export const genderClassificationRequestSchema = z
  .object({
    audio_url: z.string().optional(),
    audio_base64: z.string().optional(),
  })
  .loose();
/** Body of the classify request. */
export type GenderClassificationRequest = z.infer<typeof genderClassificationRequestSchema>;

/** Success body of the classify request. */
export const genderClassificationResponseSchema = z
  .object({
    predicted_gender: z.enum(['female', 'male']),
    /** Probability of the predicted gender, 0..1. */
    confidence: z.number().min(0).max(1),
    prediction: z.object({ female: z.number(), male: z.number() }).optional(),
    duration_seconds: z.number().optional(),
    processing_time_ms: z.number().optional(),
  })
  .loose();
/** Success body of the classify request. */
export type GenderClassificationResponse = z.infer<typeof genderClassificationResponseSchema>;

/** `model.ErrorResponse`: failure body of the classification operations. */
export interface GenderErrorBody {
  error: string;
  detail?: string;
}
