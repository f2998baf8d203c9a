/**
 * `POST /api/v1/voice`: validates the request, decodes and measures the audio for real (nothing is stored
 * unless it is decodable speech of at least {@link MIN_VOICE_PROMPT_SECONDS}), fills in gender (classifier)
 * and locale (default) when the upload leaves them out, and stores file and row.
 */
import { randomUUID } from 'node:crypto';
import { InvalidAudioError } from '../../errors.js';
import { VOICE_ERRORS, VOICE_UPLOAD_MAX_BASE64_CHARS, voiceUploadRequestSchema } from '../../protocol/voices.js';
import { analyzeVoice, speechProblem, type VoiceAnalysis } from '../audio-analysis/analyze.js';
import { decodeBase64Strict } from '../audio-analysis/base64.js';
import { classifyGender } from '../gender/classifier.js';
import { VoicePromptLimitError, type StoredVoicePrompt, type VoicePromptStore } from './store.js';
import { describeIssues } from './validation.js';

/** Shortest accepted voice sample, seconds. */
export const MIN_VOICE_PROMPT_SECONDS = 1;
/** Locale of an uploaded prompt that names none. */
export const DEFAULT_VOICE_LOCALE = 'en-US';

/** A refused request: HTTP status and the `message` of the `{success:false}` body. */
export class VoiceBankFailure extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'VoiceBankFailure';
  }
}

/** Creates a voice prompt for `accountId` from an upload body; throws {@link VoiceBankFailure} when refused. */
export async function uploadVoicePrompt(store: VoicePromptStore, accountId: string, limit: number, body: unknown, now = new Date()): Promise<StoredVoicePrompt> {
  const data = (body as { data?: unknown } | null)?.data;
  if (typeof data === 'string' && data.length > VOICE_UPLOAD_MAX_BASE64_CHARS) throw new VoiceBankFailure(413, VOICE_ERRORS.tooLarge);
  const parsed = voiceUploadRequestSchema.safeParse(body ?? {});
  if (!parsed.success) throw new VoiceBankFailure(400, `Invalid request: ${describeIssues(parsed.error)}`);
  const request = parsed.data;
  if (store.count(accountId) >= limit) throw new VoiceBankFailure(403, VOICE_ERRORS.limitReached);

  let audio: Uint8Array;
  try {
    audio = decodeBase64Strict(request.data);
  } catch (error) {
    throw new VoiceBankFailure(400, `Invalid audio data: data is not valid base64 (${(error as Error).message})`);
  }
  let analysis: VoiceAnalysis;
  try {
    analysis = await analyzeVoice(audio);
  } catch (error) {
    if (error instanceof InvalidAudioError) throw new VoiceBankFailure(400, `Invalid audio data: ${error.message}`);
    throw error;
  }
  const problem = speechProblem(analysis, MIN_VOICE_PROMPT_SECONDS);
  if (problem || analysis.medianF0Hz === undefined) throw new VoiceBankFailure(400, `Invalid audio data: ${problem ?? 'no voiced speech found'}`);

  const pitchHz = Math.round(analysis.medianF0Hz * 10) / 10;
  const classified = classifyGender(pitchHz, analysis.voicedSeconds).predicted_gender === 'female' ? 'FEMALE' : 'MALE';
  const title = request.title?.trim() || undefined;
  try {
    return store.create(
      {
        id: randomUUID(),
        accountId,
        filename: request.filename,
        format: analysis.format,
        title,
        name: title ?? request.filename.replace(/\.[^.]*$/, ''),
        text: request.text,
        locale: request.locale ?? DEFAULT_VOICE_LOCALE,
        gender: request.gender ?? classified,
        genderSource: request.gender ? 'upload' : 'classified',
        age: request.age,
        speakingStyle: request.speaking_style,
        speakerId: request.speaker_id,
        publish: request.publish ?? false,
        pitchHz,
        durationSeconds: Math.round(analysis.durationSeconds * 1000) / 1000,
        sampleRate: analysis.sampleRate,
        createdAt: now.toISOString(),
      },
      audio,
      limit,
    );
  } catch (error) {
    if (error instanceof VoicePromptLimitError) throw new VoiceBankFailure(403, VOICE_ERRORS.limitReached);
    throw error;
  }
}
