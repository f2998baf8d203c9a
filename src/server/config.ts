/**
 * Service configuration of the reference server: accounts, models, voices and their emotion sets.
 * A built-in default ({@link DEFAULT_SERVICE_CONFIG}) makes `voxpipe serve` work with no file; `--config FILE`
 * replaces it with a JSON document of the same shape, validated by {@link serviceConfigSchema}.
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';

/** One emotion of a voice: its own voice prompt id and how the synthesizer colours it. */
export const emotionSchema = z.object({
  /** Emotion name as written in `[name]` tags (matched case-insensitively). */
  name: z.string().min(1),
  /** Voice prompt id of the emotion's voice. */
  voicePromptId: z.string().min(1),
  /** Pitch multiplier applied to the base voice (1 = unchanged). */
  pitchScale: z.number().positive().default(1),
  /** Speaking-rate multiplier (1 = unchanged). */
  rateScale: z.number().positive().default(1),
  /** Loudness multiplier (1 = unchanged). */
  gain: z.number().positive().default(1),
  /** Emoji bound to this emotion when acceptEmojis is on. */
  emoji: z.array(z.string()).default([]),
});

/** A base voice of the voice bank that ships with the service. */
export const voiceSchema = z.object({
  voicePromptId: z.string().min(1),
  name: z.string().min(1),
  gender: z.enum(['MALE', 'FEMALE', 'NON_BINARY']),
  /** Default locale of the voice (BCP-47). */
  locale: z.string().min(2),
  /** Fundamental frequency of the voice in Hz. */
  pitchHz: z.number().positive(),
  /** Words per minute at rate scale 1. */
  wordsPerMinute: z.number().positive().default(170),
  /** espeak-ng variant used when the espeak engine is active (e.g. `m3`, `f2`). */
  espeakVariant: z.string().default('m3'),
  emotions: z.array(emotionSchema).default([]),
});

/** A model id and the voices it offers. */
export const modelSchema = z.object({
  id: z.string().min(1),
  description: z.string().default(''),
  /** Voice prompt id used when a session names no voice. */
  defaultVoicePromptId: z.string().min(1),
  /** Whether the model can produce diacritized Hebrew (`outputDiacritized`). */
  supportsDiacritization: z.boolean().default(false),
});

/** An account: its keys and the models it may use. */
export const accountSchema = z.object({
  id: z.string().min(1),
  /** API keys of the account (in addition to keys given on the command line, which map to the first account). */
  apiKeys: z.array(z.string()).default([]),
  /** Model ids the account may use; empty means all models. */
  models: z.array(z.string()).default([]),
  /** Region the account is provisioned in. */
  region: z.enum(['us', 'eu']).default('us'),
  /** Features enabled for the account (e.g. `live`, `diacritization`). */
  features: z.array(z.string()).default(['live', 'dubbing', 'voices', 'gender', 'usage']),
  /** Voice prompts the account may upload. */
  voicePromptLimit: z.number().int().positive().default(100),
  /** Live services the account may define. */
  liveServiceCap: z.number().int().positive().default(10),
});

/** The whole configuration document. */
export const serviceConfigSchema = z.object({
  accounts: z.array(accountSchema).min(1),
  models: z.array(modelSchema).min(1),
  voices: z.array(voiceSchema).min(1),
});

/** Parsed configuration (defaults applied). */
export type ServiceConfig = z.infer<typeof serviceConfigSchema>;
/** A configured voice. */
export type VoiceConfig = z.infer<typeof voiceSchema>;
/** A configured emotion of a voice. */
export type EmotionConfig = z.infer<typeof emotionSchema>;
/** A configured model. */
export type ModelConfig = z.infer<typeof modelSchema>;
/** A configured account. */
export type AccountConfig = z.infer<typeof accountSchema>;

const emotions = (prefix: string): z.input<typeof emotionSchema>[] => [
  { name: 'happy', voicePromptId: `${prefix}-0001-4000-8000-000000000001`, pitchScale: 1.12, rateScale: 1.08, emoji: ['😀', '😃', '😄', '😊', '🙂'] },
  { name: 'sad', voicePromptId: `${prefix}-0001-4000-8000-000000000002`, pitchScale: 0.9, rateScale: 0.85, gain: 0.8, emoji: ['😢', '😞', '☹️', '🙁'] },
  { name: 'angry', voicePromptId: `${prefix}-0001-4000-8000-000000000003`, pitchScale: 1.05, rateScale: 1.12, gain: 1.2, emoji: ['😠', '😡'] },
  { name: 'excited', voicePromptId: `${prefix}-0001-4000-8000-000000000004`, pitchScale: 1.2, rateScale: 1.15, emoji: ['🤩', '😆'] },
  { name: 'calm', voicePromptId: `${prefix}-0001-4000-8000-000000000005`, pitchScale: 0.95, rateScale: 0.9, gain: 0.9, emoji: ['😌'] },
  { name: 'whisper', voicePromptId: `${prefix}-0001-4000-8000-000000000006`, pitchScale: 1, rateScale: 0.95, gain: 0.5, emoji: ['🤫'] },
];

const MODEL_IDS = ['dd-etts-1.1', 'dd-etts-2.5', 'dd-etts-3.0', 'dd-etts-3.2', 'dd-etts-3.3'] as const;

/** The built-in configuration: one dev account, the hosted service's model ids, four voices with emotion sets. */
export const DEFAULT_SERVICE_CONFIG: ServiceConfig = serviceConfigSchema.parse({
  accounts: [{ id: 'dev', models: [] }],
  models: MODEL_IDS.map((id) => ({
    id,
    description: `Reference synthesizer standing in for ${id}`,
    defaultVoicePromptId: 'a1f7c2d0-0000-4000-8000-000000000001',
    supportsDiacritization: id >= 'dd-etts-3.0',
  })),
  voices: [
    { voicePromptId: 'a1f7c2d0-0000-4000-8000-000000000001', name: 'Avery', gender: 'FEMALE', locale: 'en-US', pitchHz: 210, espeakVariant: 'f3', emotions: emotions('a1f7c2d0') },
    { voicePromptId: 'b2e8d3e1-0000-4000-8000-000000000002', name: 'Blake', gender: 'MALE', locale: 'en-US', pitchHz: 115, espeakVariant: 'm3', emotions: emotions('b2e8d3e1') },
    { voicePromptId: 'c3d9e4f2-0000-4000-8000-000000000003', name: 'Noa', gender: 'FEMALE', locale: 'he-IL', pitchHz: 200, espeakVariant: 'f2', emotions: emotions('c3d9e4f2') },
    { voicePromptId: 'd4cafe03-0000-4000-8000-000000000004', name: 'Mateo', gender: 'MALE', locale: 'es-ES', pitchHz: 125, espeakVariant: 'm1', emotions: emotions('d4cafe03') },
  ],
});

/** Loads and validates a JSON configuration file; throws with every problem listed when it is invalid. */
export function loadServiceConfig(path: string): ServiceConfig {
  const raw: unknown = JSON.parse(readFileSync(path, 'utf8'));
  const parsed = serviceConfigSchema.safeParse(raw);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
    throw new Error(`invalid service config ${path}: ${problems}`);
  }
  return parsed.data;
}
