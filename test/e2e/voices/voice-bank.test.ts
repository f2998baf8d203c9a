import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VoicesClient } from '../../../src/client/voices.js';
import { AuthenticationError, BadRequestError, NotFoundError, PayloadTooLargeError, PermissionDeniedError } from '../../../src/errors.js';
import { VOICE_UPLOAD_MAX_BASE64_CHARS } from '../../../src/protocol/voices.js';
import type { RunningServer } from '../../../src/server/app.js';
import { accountSchema, DEFAULT_SERVICE_CONFIG, type ServiceConfig } from '../../../src/server/config.js';
import { startTestServer, TEST_API_KEY } from '../../helpers/server.js';
import { syntheticVoice } from '../../unit/gender/synthetic-voice.js';
import { wavBytes } from '../../unit/gender/wav-fixture.js';

const OTHER_KEY = 'dd-fedcba9876543210fedcba9876543210';
const fixture = (name: string): Uint8Array => new Uint8Array(readFileSync(new URL(`../../unit/gender/fixtures/${name}`, import.meta.url)));
const b64 = (bytes: Uint8Array): string => Buffer.from(bytes).toString('base64');

/** Two accounts: `dev` (the test key, at most 3 prompts) and `other`. */
const config: ServiceConfig = {
  ...DEFAULT_SERVICE_CONFIG,
  accounts: [accountSchema.parse({ id: 'dev', voicePromptLimit: 3 }), accountSchema.parse({ id: 'other', apiKeys: [OTHER_KEY] })],
};

describe('voice bank over HTTP', () => {
  let server: RunningServer;
  let voices: VoicesClient;
  const post = (body: unknown, key: string | null = TEST_API_KEY): Promise<Response> =>
    fetch(`${server.url}/api/v1/voice`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(key ? { 'x-api-key': key } : {}) },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
  const rows = (): number => (server.context.db.prepare('SELECT COUNT(*) AS n FROM voice_prompts').get() as { n: number }).n;
  const files = (): string[] => {
    const dir = join(server.context.dataDir, 'voices');
    return existsSync(dir) ? readdirSync(dir) : [];
  };

  beforeAll(async () => {
    server = await startTestServer({ config });
    voices = new VoicesClient({ baseUrl: server.url, apiKey: TEST_API_KEY, maxRetries: 0 });
  });
  afterAll(() => server.close());

  it('uploads, lists, gets, updates and deletes; the directory follows the measured pitch', async () => {
    const female = fixture('espeak-en-f3.flac');
    const id = await voices.upload({
      filename: 'narrator.flac',
      data: female,
      title: 'Narrator',
      text: 'Hello there. How are you doing today?',
      locale: 'en-GB',
      gender: 'female',
      age: 35,
      speaking_style: 'narrative',
      speaker_id: 'spk-1',
      publish: true,
    });
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const prompt = await voices.get(id);
    expect(prompt).toMatchObject({
      id,
      title: 'Narrator',
      name: 'Narrator',
      text: 'Hello there. How are you doing today?',
      locale: 'en-GB',
      gender: 'FEMALE',
      age: 35,
      speakingStyle: 'narrative',
      speakerId: 'spk-1',
      publish: true,
      filename: 'narrator.flac',
    });
    expect(prompt.durationSeconds).toBeCloseTo(2.38, 1);
    expect(prompt.pitchHz).toBeGreaterThan(185);
    expect(prompt.pitchHz).toBeLessThan(215);
    expect(Date.parse(prompt.createdAt ?? '')).toBeGreaterThan(Date.now() - 60_000);
    expect(readFileSync(join(server.context.dataDir, 'voices', `${id}.flac`))).toEqual(Buffer.from(female));

    // Gender and locale left out: classified from the measured pitch, default locale.
    const maleId = await voices.upload({ filename: 'bloke.wav', data: b64(fixture('espeak-en-m3.wav')) });
    const male = await voices.get(maleId);
    expect(male).toMatchObject({ gender: 'MALE', locale: 'en-US', name: 'bloke' });
    expect(male.title).toBeUndefined();
    const resolved = server.context.voices.resolve('dev', maleId);
    expect(resolved).toEqual({
      voice: { voicePromptId: maleId, pitchHz: male.pitchHz, gender: 'MALE', locale: 'en-US', wordsPerMinute: 170, espeakVariant: 'm3' },
      emotions: [],
    });
    expect(male.pitchHz).toBeGreaterThan(90);
    expect(male.pitchHz).toBeLessThan(110);
    // Configured voices still resolve first; other accounts do not see the prompt.
    expect(server.context.voices.resolve('dev', 'b2e8d3e1-0000-4000-8000-000000000002')?.voice.pitchHz).toBe(115);
    expect(server.context.voices.resolve('other', maleId)).toBeUndefined();

    const listed = await voices.list();
    expect(listed.map((p) => p.id)).toEqual([maleId, id]);
    expect((await voices.list({ limit: 1 })).map((p) => p.id)).toEqual([maleId]);

    const updated = await voices.update({ id: maleId, name: 'Blokey', locale: '', gender: 'non_binary', age: 51 });
    expect(updated).toMatchObject({ id: maleId, name: 'Blokey', locale: 'en-US', gender: 'NON_BINARY', age: 51 });
    expect(server.context.voices.resolve('dev', maleId)?.voice).toMatchObject({ gender: 'NON_BINARY', espeakVariant: 'm2' });
    expect(await voices.get(maleId)).toEqual(updated);

    await voices.delete(id);
    await voices.delete(maleId);
    await expect(voices.get(id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(voices.delete(id)).rejects.toMatchObject({ code: 'not_found', status: 404, message: 'Voice prompt not found' });
    expect(server.context.voices.resolve('dev', maleId)).toBeUndefined();
    expect(await voices.list()).toEqual([]);
    expect(files()).toEqual([]);
    expect(rows()).toBe(0);
  });

  describe('every bad input gets its documented error and nothing is stored', () => {
    const speech = b64(fixture('espeak-en-m3.wav'));
    const cases: Array<[string, unknown, string | null, number, string | RegExp]> = [
      ['no key', { filename: 'a.wav', data: speech }, null, 401, 'Unauthorized: invalid or missing API key'],
      ['an unknown key', { filename: 'a.wav', data: speech }, 'dd-00000000000000000000000000000000', 401, 'Unauthorized: invalid or missing API key'],
      ['no filename', { data: speech }, TEST_API_KEY, 400, 'Invalid request: filename is required'],
      ['an empty filename', { filename: ' ', data: speech }, TEST_API_KEY, 400, 'Invalid request: filename is required'],
      ['no data', { filename: 'a.wav' }, TEST_API_KEY, 400, 'Invalid request: data (base64 audio) is required'],
      ['bad base64', { filename: 'a.wav', data: 'UklGR$$$' }, TEST_API_KEY, 400, 'Invalid audio data: data is not valid base64 (invalid base64 character "$" at position 5)'],
      ['base64 that is not audio', { filename: 'a.wav', data: b64(new Uint8Array(Buffer.from('just some text, not a voice'))) }, TEST_API_KEY, 400, 'Invalid audio data: not a supported audio file (expected WAV, MP3, FLAC, Ogg Vorbis or Ogg Opus)'],
      ['a truncated WAV', { filename: 'a.wav', data: b64(fixture('espeak-en-m3.wav').subarray(0, 30)) }, TEST_API_KEY, 400, 'Invalid audio data: not a readable WAV file: truncated header'],
      ['half a second of speech', { filename: 'a.wav', data: b64(wavBytes([syntheticVoice({ f0Hz: 120, seconds: 0.5 })], { sampleRate: 16_000 })) }, TEST_API_KEY, 400, /^Invalid audio data: audio is too short: 0\.50 s/],
      ['two seconds of silence', { filename: 'a.wav', data: b64(wavBytes([new Float32Array(32_000)], { sampleRate: 16_000 })) }, TEST_API_KEY, 400, 'Invalid audio data: audio is silent (loudest passage digital silence)'],
      ['an unknown gender', { filename: 'a.wav', data: speech, gender: 'robot' }, TEST_API_KEY, 400, 'Invalid request: gender must be one of MALE, FEMALE, NON_BINARY'],
      ['a negative age', { filename: 'a.wav', data: speech, age: -3 }, TEST_API_KEY, 400, 'Invalid request: age must be between 0 and 150'],
      ['a fractional age', { filename: 'a.wav', data: speech, age: 3.5 }, TEST_API_KEY, 400, 'Invalid request: age must be an integer'],
      ['a non-boolean publish', { filename: 'a.wav', data: speech, publish: 'yes' }, TEST_API_KEY, 400, 'Invalid request: publish must be a boolean'],
      ['a body that is not JSON', '{"filename": "a.wav", "data": ', TEST_API_KEY, 400, /^Invalid request: /],
      ['a JSON array', '[1,2]', TEST_API_KEY, 400, /^Invalid request: /],
    ];
    it.each(cases)('%s', async (_name, body, key, status, message) => {
      const res = await post(body, key);
      expect(res.status).toBe(status);
      const json = (await res.json()) as { success: boolean; message: string };
      expect(json.success).toBe(false);
      expect(json.message).toMatch(message);
      expect(Object.keys(json).sort()).toEqual(['message', 'success']);
      expect(rows()).toBe(0);
      expect(files()).toEqual([]);
    });

    it('data over 20 MB: 413 from the service, and the client refuses it before sending', async () => {
      const res = await post({ filename: 'big.wav', data: 'A'.repeat(VOICE_UPLOAD_MAX_BASE64_CHARS + 4) });
      expect(res.status).toBe(413);
      expect(await res.json()).toEqual({ success: false, message: 'Audio data exceeds the 20 MB limit' });
      const error = await voices.upload({ filename: 'big.wav', data: 'A'.repeat(VOICE_UPLOAD_MAX_BASE64_CHARS + 4) }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(PayloadTooLargeError);
      expect(error).toMatchObject({ code: 'payload_too_large' });
      expect(rows()).toBe(0);
    });

    it('surfaces refusals as typed client errors', async () => {
      await expect(voices.upload({ filename: 'x.wav', data: 'bm90IGF1ZGlv' })).rejects.toMatchObject({ code: 'bad_request', status: 400 });
      await expect(voices.upload({ filename: 'x.wav', data: 'bm90IGF1ZGlv' })).rejects.toBeInstanceOf(BadRequestError);
      const anonymous = new VoicesClient({ baseUrl: server.url, maxRetries: 0 });
      await expect(anonymous.list()).rejects.toBeInstanceOf(AuthenticationError);
      await expect(voices.list({ limit: 0 })).rejects.toMatchObject({ code: 'invalid_argument' });
      expect(rows()).toBe(0);
    });

    it('refuses bad list, get, update and delete requests', async () => {
      const call = async (method: string, path: string, body?: unknown): Promise<[number, unknown]> => {
        const res = await fetch(`${server.url}${path}`, {
          method,
          headers: { 'x-api-key': TEST_API_KEY, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        });
        return [res.status, await res.json()];
      };
      const missing = '6f1c3b0e-1111-4222-8333-444455556666';
      expect(await call('GET', '/api/v1/voice?limit=0')).toEqual([400, { success: false, message: 'Invalid request parameters: limit must be a positive integer' }]);
      expect(await call('GET', '/api/v1/voice?limit=abc')).toEqual([400, { success: false, message: 'Invalid request parameters: limit must be a positive integer' }]);
      expect(await call('GET', '/api/v1/voice/not-a-uuid')).toEqual([400, { success: false, message: 'Invalid voice prompt ID format' }]);
      expect(await call('GET', `/api/v1/voice/${missing}`)).toEqual([404, { success: false, message: 'Voice prompt not found' }]);
      expect(await call('DELETE', '/api/v1/voice/not-a-uuid')).toEqual([400, { success: false, message: 'Invalid voice prompt ID format' }]);
      expect(await call('DELETE', `/api/v1/voice/${missing}`)).toEqual([404, { success: false, message: 'Voice prompt not found' }]);
      expect(await call('PUT', '/api/v1/voice', { name: 'x' })).toEqual([400, { success: false, message: 'Invalid request: voice prompt ID is required' }]);
      expect(await call('PUT', '/api/v1/voice', { id: missing, name: 'x' })).toEqual([404, { success: false, message: 'Voice prompt not found' }]);
      expect(await call('PUT', '/api/v1/voice', { id: missing, gender: 'robot' })).toEqual([
        400,
        { success: false, message: 'Invalid request: gender must be one of MALE, FEMALE, NON_BINARY' },
      ]);
    });
  });

  it('enforces the per-account limit (403) and keeps accounts apart', async () => {
    const speech = b64(fixture('espeak-en-m3.wav'));
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push(await voices.upload({ filename: `v${i}.wav`, data: speech }));
    const res = await post({ filename: 'v3.wav', data: speech });
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ success: false, message: 'Voice prompt limit reached for your account' });
    await expect(voices.upload({ filename: 'v3.wav', data: speech })).rejects.toBeInstanceOf(PermissionDeniedError);
    expect(rows()).toBe(3);
    expect(files()).toHaveLength(3);

    const other = new VoicesClient({ baseUrl: server.url, apiKey: OTHER_KEY, maxRetries: 0 });
    expect(await other.list()).toEqual([]);
    await expect(other.get(ids[0] as string)).rejects.toBeInstanceOf(NotFoundError);
    await expect(other.delete(ids[0] as string)).rejects.toBeInstanceOf(NotFoundError);
    const otherId = await other.upload({ filename: 'mine.wav', data: speech });
    expect((await other.list()).map((p) => p.id)).toEqual([otherId]);

    for (const id of ids) await voices.delete(id);
    await other.delete(otherId);
    expect(rows()).toBe(0);
  });
});

describe('voice bank durability', () => {
  it('keeps prompts across a restart on the same data directory', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'voxpipe-voices-'));
    try {
      const first = await startTestServer({ dataDir });
      const id = await new VoicesClient({ baseUrl: first.url, apiKey: TEST_API_KEY }).upload({ filename: 'keep.opus', data: fixture('espeak-en-f1.opus'), gender: 'FEMALE' });
      await first.close();
      const second = await startTestServer({ dataDir });
      try {
        const client = new VoicesClient({ baseUrl: second.url, apiKey: TEST_API_KEY });
        expect(await client.get(id)).toMatchObject({ id, gender: 'FEMALE', filename: 'keep.opus' });
        expect(second.context.voices.resolve('dev', id)?.voice.espeakVariant).toBe('f3');
        expect(existsSync(join(dataDir, 'voices', `${id}.opus`))).toBe(true);
        await client.delete(id);
        expect(existsSync(join(dataDir, 'voices', `${id}.opus`))).toBe(false);
      } finally {
        await second.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('voice bank edge cases', () => {
  let server: RunningServer;
  let voices: VoicesClient;
  beforeAll(async () => {
    server = await startTestServer({ config });
    voices = new VoicesClient({ baseUrl: server.url, apiKey: TEST_API_KEY, maxRetries: 0 });
  });
  afterAll(() => server.close());

  it('concurrent uploads never overshoot the per-account limit', async () => {
    const speech = fixture('espeak-en-m3.wav');
    const results = await Promise.allSettled(Array.from({ length: 6 }, (_, i) => voices.upload({ filename: `c${i}.wav`, data: speech })));
    const created = results.filter((r): r is PromiseFulfilledResult<string> => r.status === 'fulfilled').map((r) => r.value);
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(created).toHaveLength(3);
    expect(refused.map((r) => (r.reason as PermissionDeniedError).message)).toEqual(Array(3).fill('Voice prompt limit reached for your account'));
    expect(readdirSync(join(server.context.dataDir, 'voices')).sort()).toEqual(created.map((id) => `${id}.wav`).sort());
    for (const id of created) await voices.delete(id);
  });

  it('stores Ogg Vorbis (sent as a data URL) and 24-bit stereo WAV with their own extension; an update of only empty fields changes nothing', async () => {
    const vorbis = await voices.upload({ filename: 'v.ogg', data: `data:audio/ogg;base64,${b64(fixture('espeak-en-m7.ogg'))}`, locale: 'en-AU' });
    const stereo = wavBytes([syntheticVoice({ f0Hz: 230, formantScale: 1.17, sampleRate: 44_100 }), syntheticVoice({ f0Hz: 230, formantScale: 1.17, sampleRate: 44_100, seed: 9 })], { sampleRate: 44_100, bits: 24 });
    const wav = await voices.upload({ filename: 'stereo.wav', data: stereo });
    expect(await voices.get(vorbis)).toMatchObject({ gender: 'MALE', locale: 'en-AU', filename: 'v.ogg' });
    const high = await voices.get(wav);
    expect(high.gender).toBe('FEMALE');
    expect(Math.abs((high.pitchHz ?? 0) - 230)).toBeLessThan(5);
    expect(readdirSync(join(server.context.dataDir, 'voices')).sort()).toEqual([`${vorbis}.ogg`, `${wav}.wav`].sort());
    expect(await voices.update({ id: wav, name: '', locale: '  ', gender: '' })).toEqual(high);
    await voices.delete(vorbis);
    await voices.delete(wav);
  });
});
