/**
 * Durable voice bank: one SQLite row per uploaded voice prompt (metadata and the pitch measured at upload)
 * and the audio file itself under `<dataDir>/voices/<id>.<ext>`. The per-account limit is checked inside
 * the insert transaction, so concurrent uploads cannot overshoot it.
 */
import { mkdirSync, rmSync, writeFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import type { VoiceGender, VoicePrompt } from '../../protocol/voices.js';
import type { AudioFileFormat } from '../audio-analysis/decode.js';
import type { Db } from '../store.js';

/** A stored voice prompt row. */
export interface StoredVoicePrompt {
  id: string;
  accountId: string;
  filename: string;
  /** File name under the voices directory. */
  file: string;
  format: AudioFileFormat;
  title: string | undefined;
  name: string;
  text: string | undefined;
  locale: string;
  gender: VoiceGender;
  /** Whether `gender` came with the upload or from the classifier. */
  genderSource: 'upload' | 'classified';
  age: number | undefined;
  speakingStyle: string | undefined;
  speakerId: string | undefined;
  publish: boolean;
  /** Median F0 measured at upload, Hz. */
  pitchHz: number;
  durationSeconds: number;
  sampleRate: number;
  createdAt: string;
}

/** Fields `PUT /api/v1/voice` may change. */
export interface VoicePromptPatch {
  name?: string;
  locale?: string;
  gender?: VoiceGender;
  age?: number;
}

/** Thrown by {@link VoicePromptStore.create} when the account already holds its limit. */
export class VoicePromptLimitError extends Error {
  constructor(readonly limit: number) {
    super(`voice prompt limit of ${limit} reached`);
    this.name = 'VoicePromptLimitError';
  }
}

const EXTENSIONS: Record<AudioFileFormat, string> = { wav: 'wav', mp3: 'mp3', flac: 'flac', 'ogg-vorbis': 'ogg', 'ogg-opus': 'opus' };

interface Row {
  id: string;
  account_id: string;
  filename: string;
  file: string;
  format: AudioFileFormat;
  title: string | null;
  name: string;
  text: string | null;
  locale: string;
  gender: VoiceGender;
  gender_source: 'upload' | 'classified';
  age: number | null;
  speaking_style: string | null;
  speaker_id: string | null;
  publish: number;
  pitch_hz: number;
  duration_seconds: number;
  sample_rate: number;
  created_at: string;
}

const toPrompt = (r: Row): StoredVoicePrompt => ({
  id: r.id,
  accountId: r.account_id,
  filename: r.filename,
  file: r.file,
  format: r.format,
  title: r.title ?? undefined,
  name: r.name,
  text: r.text ?? undefined,
  locale: r.locale,
  gender: r.gender,
  genderSource: r.gender_source,
  age: r.age ?? undefined,
  speakingStyle: r.speaking_style ?? undefined,
  speakerId: r.speaker_id ?? undefined,
  publish: r.publish === 1,
  pitchHz: r.pitch_hz,
  durationSeconds: r.duration_seconds,
  sampleRate: r.sample_rate,
  createdAt: r.created_at,
});

/** The wire form (`model.VoicePrompt`) of a stored prompt. */
export function toWirePrompt(p: StoredVoicePrompt): VoicePrompt {
  const optional = { title: p.title, text: p.text, speakerId: p.speakerId, speakingStyle: p.speakingStyle, age: p.age };
  return {
    id: p.id,
    name: p.name,
    locale: p.locale,
    createdAt: p.createdAt,
    gender: p.gender,
    publish: p.publish,
    filename: p.filename,
    durationSeconds: p.durationSeconds,
    pitchHz: p.pitchHz,
    ...Object.fromEntries(Object.entries(optional).filter(([, v]) => v !== undefined)),
  };
}

/** Voice prompts of every account, in SQLite plus audio files. */
export class VoicePromptStore {
  readonly directory: string;
  readonly #db: Db;

  constructor(db: Db, dataDir: string) {
    this.#db = db;
    this.directory = join(dataDir, 'voices');
    db.exec(`CREATE TABLE IF NOT EXISTS voice_prompts (
      id TEXT PRIMARY KEY,
      account_id TEXT NOT NULL,
      filename TEXT NOT NULL,
      file TEXT NOT NULL,
      format TEXT NOT NULL,
      title TEXT,
      name TEXT NOT NULL,
      text TEXT,
      locale TEXT NOT NULL,
      gender TEXT NOT NULL,
      gender_source TEXT NOT NULL,
      age INTEGER,
      speaking_style TEXT,
      speaker_id TEXT,
      publish INTEGER NOT NULL,
      pitch_hz REAL NOT NULL,
      duration_seconds REAL NOT NULL,
      sample_rate INTEGER NOT NULL,
      created_at TEXT NOT NULL
    );
    CREATE INDEX IF NOT EXISTS voice_prompts_by_account ON voice_prompts (account_id, created_at);`);
  }

  /** Number of prompts the account holds. */
  count(accountId: string): number {
    return (this.#db.prepare('SELECT COUNT(*) AS n FROM voice_prompts WHERE account_id = ?').get(accountId) as { n: number }).n;
  }

  /**
   * Writes the audio file, then inserts the row unless the account already holds `limit` prompts
   * (then the file is removed and {@link VoicePromptLimitError} thrown).
   */
  create(prompt: Omit<StoredVoicePrompt, 'file'>, audio: Uint8Array, limit: number): StoredVoicePrompt {
    const stored: StoredVoicePrompt = { ...prompt, file: `${prompt.id}.${EXTENSIONS[prompt.format]}` };
    mkdirSync(this.directory, { recursive: true });
    const path = join(this.directory, stored.file);
    writeFileSync(`${path}.part`, audio, { flush: true });
    renameSync(`${path}.part`, path);
    try {
      this.#db.transaction(() => {
        if (this.count(prompt.accountId) >= limit) throw new VoicePromptLimitError(limit);
        this.#db
          .prepare(
            `INSERT INTO voice_prompts (id, account_id, filename, file, format, title, name, text, locale, gender, gender_source, age,
               speaking_style, speaker_id, publish, pitch_hz, duration_seconds, sample_rate, created_at)
             VALUES (@id, @accountId, @filename, @file, @format, @title, @name, @text, @locale, @gender, @genderSource, @age,
               @speakingStyle, @speakerId, @publish, @pitchHz, @durationSeconds, @sampleRate, @createdAt)`,
          )
          .run({
            ...stored,
            title: stored.title ?? null,
            text: stored.text ?? null,
            age: stored.age ?? null,
            speakingStyle: stored.speakingStyle ?? null,
            speakerId: stored.speakerId ?? null,
            publish: stored.publish ? 1 : 0,
          });
      })();
    } catch (error) {
      rmSync(path, { force: true });
      throw error;
    }
    return stored;
  }

  /** The account's prompt `id`, or undefined. */
  get(accountId: string, id: string): StoredVoicePrompt | undefined {
    const row = this.#db.prepare('SELECT * FROM voice_prompts WHERE id = ? AND account_id = ?').get(id, accountId) as Row | undefined;
    return row && toPrompt(row);
  }

  /** The account's prompts, newest first, at most `limit`. */
  list(accountId: string, limit: number): StoredVoicePrompt[] {
    const rows = this.#db
      .prepare('SELECT * FROM voice_prompts WHERE account_id = ? ORDER BY created_at DESC, rowid DESC LIMIT ?')
      .all(accountId, limit) as Row[];
    return rows.map(toPrompt);
  }

  /** Applies `patch`; returns the updated prompt, or undefined when the account has no prompt `id`. */
  update(accountId: string, id: string, patch: VoicePromptPatch): StoredVoicePrompt | undefined {
    const columns = { name: patch.name, locale: patch.locale, gender: patch.gender, age: patch.age };
    const set = Object.entries(columns).filter(([, v]) => v !== undefined);
    if (set.length > 0) {
      this.#db
        .prepare(`UPDATE voice_prompts SET ${set.map(([k]) => `${k} = @${k}`).join(', ')}${patch.gender ? ", gender_source = 'upload'" : ''} WHERE id = @id AND account_id = @accountId`)
        .run({ ...Object.fromEntries(set), id, accountId });
    }
    return this.get(accountId, id);
  }

  /** Deletes the row and its audio file; false when the account has no prompt `id`. */
  delete(accountId: string, id: string): boolean {
    const prompt = this.get(accountId, id);
    if (!prompt) return false;
    this.#db.prepare('DELETE FROM voice_prompts WHERE id = ? AND account_id = ?').run(id, accountId);
    rmSync(join(this.directory, prompt.file), { force: true });
    return true;
  }
}
