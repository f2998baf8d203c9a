/**
 * Wire shapes of the voice bank (`/api/v1/voice`): upload, list, get, update and delete of voice prompts,
 * with the field names of the reference OpenAPI (`model.VoiceBankAPIRequest`, `model.VoicePrompt`,
 * `model.VoiceBankAPIUpdateRequest`, `model.APIError`, `model.Response`). Shared by client and server; no I/O.
 */
import { z } from 'zod';

/** Largest accepted `data` field of an upload: 20 MB (20 × 1024 × 1024 characters of base64). */
export const VOICE_UPLOAD_MAX_BASE64_CHARS = 20 * 1024 * 1024;

/** Speaker genders of the voice bank. */
export const VOICE_GENDERS = ['MALE', 'FEMALE', 'NON_BINARY'] as const;
/** One of {@link VOICE_GENDERS}. */
export type VoiceGender = (typeof VOICE_GENDERS)[number];

/** A gender as sent by clients: the enum, case-insensitively (`female` is read as `FEMALE`). */
export const voiceGenderSchema = z
  .string()
  .transform((g) => g.trim().toUpperCase())
  .pipe(z.enum(VOICE_GENDERS, { error: 'gender must be one of MALE, FEMALE, NON_BINARY' }));

/** Body of `POST /api/v1/voice`. `filename` and `data` (base64 audio) are required. */
export const voiceUploadRequestSchema = z
  .object({
    filename: z.string({ error: 'filename is required' }).trim().min(1, 'filename is required'),
    data: z.string({ error: 'data (base64 audio) is required' }).min(1, 'data (base64 audio) is required'),
    title: z.string().optional(),
    /** Transcript of the spoken text. */
    text: z.string().optional(),
    locale: z.string().trim().min(2, 'locale must be a language code such as en-US').optional(),
    gender: voiceGenderSchema.optional(),
    age: z.number({ error: 'age must be an integer' }).int('age must be an integer').min(0, 'age must be between 0 and 150').max(150, 'age must be between 0 and 150').optional(),
    speaking_style: z.string().optional(),
    speaker_id: z.string().optional(),
    /** Whether the voice prompt is publicly available. */
    publish: z.boolean({ error: 'publish must be a boolean' }).optional(),
  })
  .loose();
/** An upload request as sent (`gender` in any case). */
export interface VoiceUploadRequest {
  filename: string;
  /** Base64 audio (WAV, MP3, FLAC, Ogg Vorbis or Ogg Opus), at most 20 MB. */
  data: string;
  title?: string;
  /** Transcript of the spoken text. */
  text?: string;
  locale?: string;
  gender?: VoiceGender | Lowercase<VoiceGender>;
  age?: number;
  speaking_style?: string;
  speaker_id?: string;
  /** Whether the voice prompt is publicly available. */
  publish?: boolean;
}
/** An upload request after validation (gender upper-cased). */
export type ParsedVoiceUploadRequest = z.output<typeof voiceUploadRequestSchema>;

/** Success body of `POST /api/v1/voice`. */
export const voiceUploadResponseSchema = z.object({ response: z.object({ voice_prompt_id: z.string() }) });
/** Success body of `POST /api/v1/voice`. */
export type VoiceUploadResponse = z.infer<typeof voiceUploadResponseSchema>;

/**
 * A stored voice prompt (`model.VoicePrompt`). Beyond the OpenAPI fields, the reference service also reports
 * `age`, `publish`, `filename`, `durationSeconds` and `pitchHz` (median F0 measured at upload).
 */
export const voicePromptSchema = z
  .object({
    id: z.string(),
    title: z.string().optional(),
    name: z.string().optional(),
    locale: z.string().optional(),
    text: z.string().optional(),
    createdAt: z.string().optional(),
    speakerId: z.string().optional(),
    gender: z.enum(VOICE_GENDERS).optional(),
    speakingStyle: z.string().optional(),
    age: z.number().int().optional(),
    publish: z.boolean().optional(),
    filename: z.string().optional(),
    durationSeconds: z.number().optional(),
    pitchHz: z.number().optional(),
  })
  .loose();
/** A stored voice prompt. */
export type VoicePrompt = z.infer<typeof voicePromptSchema>;

/** Body of `GET /api/v1/voice`. */
export const voicePromptListSchema = z.object({ voicePrompts: z.array(voicePromptSchema) });
/** Body of `GET /api/v1/voice/{prompt_id}` and `PUT /api/v1/voice`. */
export const voicePromptEnvelopeSchema = z.object({ prompt: voicePromptSchema });

/** Body of `PUT /api/v1/voice`: `id` plus the fields to change (omitted or empty fields are left alone). */
export const voiceUpdateRequestSchema = z
  .object({
    id: z.string({ error: 'voice prompt ID is required' }).trim().min(1, 'voice prompt ID is required'),
    name: z.string().optional(),
    locale: z.string().optional(),
    /** An empty string leaves the gender unchanged. */
    gender: z
      .string()
      .transform((g) => g.trim().toUpperCase())
      .pipe(z.enum(['', ...VOICE_GENDERS], { error: 'gender must be one of MALE, FEMALE, NON_BINARY' }))
      .optional(),
    age: z.number({ error: 'age must be an integer' }).int('age must be an integer').min(0, 'age must be between 0 and 150').max(150, 'age must be between 0 and 150').optional(),
  })
  .loose();
/** An update request as sent: `id` plus the fields to change. */
export interface VoiceUpdateRequest {
  id: string;
  name?: string;
  locale?: string;
  /** An empty string leaves the gender unchanged. */
  gender?: VoiceGender | Lowercase<VoiceGender> | '';
  age?: number;
}

/** `model.Response`: the success wrapper (delete, connection counts). */
export const apiResponseSchema = z.object({ success: z.boolean(), message: z.string().optional(), data: z.unknown().optional() }).loose();
/** `model.Response`. */
export interface ApiResponse<T = unknown> {
  success: boolean;
  message?: string;
  data?: T;
}

/** `model.APIError`: the failure body of the voice bank, usage and connection operations. */
export interface ApiErrorBody {
  success: false;
  message: string;
}

/** The failure messages of the voice bank, as the spec and OpenAPI word them. */
export const VOICE_ERRORS = {
  tooLarge: 'Audio data exceeds the 20 MB limit',
  unauthorized: 'Unauthorized: invalid or missing API key',
  limitReached: 'Voice prompt limit reached for your account',
  notFound: 'Voice prompt not found',
  internal: 'Internal server error',
} as const;
