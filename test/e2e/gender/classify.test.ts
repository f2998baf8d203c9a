import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { GenderClient } from '../../../src/client/gender.js';
import { AuthenticationError, BadRequestError, ValidationError } from '../../../src/errors.js';
import type { RunningServer } from '../../../src/server/app.js';
import { S3_ENDPOINT_ENV } from '../../../src/server/gender/fetch-audio.js';
import { startTestServer, TEST_API_KEY } from '../../helpers/server.js';
import { syntheticVoice } from '../../unit/gender/synthetic-voice.js';
import { wavBytes } from '../../unit/gender/wav-fixture.js';

const fixture = (name: string): Buffer => readFileSync(new URL(`../../unit/gender/fixtures/${name}`, import.meta.url));
const b64 = (bytes: Uint8Array): string => Buffer.from(bytes).toString('base64');

/** A loopback file server: `/bucket/<fixture>` serves a fixture, `/huge` declares 40 MB, anything else 404. */
function startFileServer(): Promise<Server> {
  const server = createServer((req, res) => {
    const path = req.url ?? '/';
    if (path === '/huge') {
      res.writeHead(200, { 'content-length': String(40 * 1024 * 1024), 'content-type': 'audio/wav' });
      res.write(Buffer.alloc(1024));
      return;
    }
    const match = /^\/bucket\/(?:voices\/)?([\w.-]+)$/.exec(path);
    if (!match) {
      res.writeHead(404).end('no such key');
      return;
    }
    try {
      const body = fixture(match[1] as string);
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(body.length) }).end(body);
    } catch {
      res.writeHead(404).end('no such key');
    }
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

describe('gender classification over HTTP', () => {
  let server: RunningServer;
  let files: Server;
  let filesUrl: string;
  let client: GenderClient;
  const classify = async (body: unknown, key: string | null = TEST_API_KEY): Promise<[number, Record<string, unknown>]> => {
    const res = await fetch(`${server.url}/api/v1/gender-detection/classify`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(key ? { 'x-api-key': key } : {}) },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
    return [res.status, (await res.json()) as Record<string, unknown>];
  };

  beforeAll(async () => {
    server = await startTestServer();
    files = await startFileServer();
    filesUrl = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;
    client = new GenderClient({ baseUrl: server.url, apiKey: TEST_API_KEY, maxRetries: 0 });
  });
  afterEach(() => {
    delete process.env[S3_ENDPOINT_ENV];
  });
  afterAll(async () => {
    files.closeAllConnections();
    await new Promise((resolve) => files.close(resolve));
    await server.close();
  });

  it.each([
    ['espeak-en-m3.wav', 'male'],
    ['espeak-de-m2.flac', 'male'],
    ['espeak-en-m7.ogg', 'male'],
    ['espeak-en-f3.flac', 'female'],
    ['espeak-es-f5.opus', 'female'],
    ['espeak-en-f1.opus', 'female'],
  ] as const)('classifies espeak-ng speech %s as %s (audio_base64)', async (name, gender) => {
    const result = await client.classify({ audio: fixture(name) });
    expect(result.predicted_gender).toBe(gender);
    expect(result.confidence).toBeGreaterThan(0.6);
    expect(result.confidence).toBeLessThanOrEqual(1);
    expect(result.prediction?.[gender]).toBe(result.confidence);
    expect((result.prediction?.female ?? 0) + (result.prediction?.male ?? 0)).toBeCloseTo(1, 6);
    expect(result.duration_seconds).toBeGreaterThan(2);
    expect(result.duration_seconds).toBeLessThan(2.6);
    expect(result.processing_time_ms).toBeGreaterThan(0);
  });

  it.each([
    [95, 1, 'male'],
    [125, 1, 'male'],
    [195, 1.17, 'female'],
    [240, 1.17, 'female'],
  ] as const)('classifies a synthetic glottal-pulse voice at %i Hz as %s', async (f0, formantScale, gender) => {
    const audio = wavBytes([syntheticVoice({ f0Hz: f0, formantScale, sampleRate: 24_000 })], { sampleRate: 24_000 });
    const result = await client.classify({ audioBase64: b64(audio) });
    expect(result.predicted_gender).toBe(gender);
    expect(result.confidence).toBeGreaterThan(0.8);
  });

  it('fetches audio_url over http', async () => {
    const result = await client.classify({ audioUrl: `${filesUrl}/bucket/espeak-en-f3.flac` });
    expect(result.predicted_gender).toBe('female');
  });

  it('fetches s3:// URLs path-style through VOXPIPE_S3_ENDPOINT', async () => {
    process.env[S3_ENDPOINT_ENV] = `${filesUrl}/`;
    const result = await client.classify({ audioUrl: 's3://bucket/voices/espeak-en-m7.ogg' });
    expect(result.predicted_gender).toBe('male');
  });

  it('classifies a multipart upload (POST /classify/upload) and refuses uploads without a file', async () => {
    const upload = async (form: FormData | string, key: string | null = TEST_API_KEY): Promise<[number, unknown]> => {
      const res = await fetch(`${server.url}/api/v1/gender-detection/classify/upload`, {
        method: 'POST',
        headers: { ...(key ? { 'x-api-key': key } : {}), ...(typeof form === 'string' ? { 'content-type': 'application/json' } : {}) },
        body: form,
      });
      return [res.status, await res.json()];
    };
    const withFile = (name: string): FormData => {
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(fixture(name))]), name);
      return form;
    };
    const [status, body] = await upload(withFile('espeak-en-f3.flac'));
    expect(status).toBe(200);
    expect(body).toMatchObject({ predicted_gender: 'female' });
    const noFile = new FormData();
    noFile.append('note', 'no audio here');
    expect(await upload(noFile)).toEqual([400, { error: 'Bad request', detail: 'No file uploaded' }]);
    expect(await upload('{"audio_base64": "AAAA"}')).toEqual([400, { error: 'Bad request', detail: 'the body must be multipart/form-data with a file field' }]);
    expect(await upload(withFile('espeak-en-m3.wav'), null)).toEqual([401, { error: 'Unauthorized', detail: 'Invalid or missing API key' }]);
  });

  it('prefers audio_base64 when both are given', async () => {
    const [status, body] = await classify({ audio_base64: b64(fixture('espeak-en-m3.wav')), audio_url: `${filesUrl}/bucket/espeak-en-f3.flac` });
    expect(status).toBe(200);
    expect(body.predicted_gender).toBe('male');
  });

  describe('failures are {error, detail} with the documented status', () => {
    const silence = b64(wavBytes([new Float32Array(32_000)], { sampleRate: 16_000 }));
    let seed = 5;
    const hiss = b64(wavBytes([Float32Array.from({ length: 32_000 }, () => ((seed = (seed * 1_103_515_245 + 12_345) & 0x7fffffff) / 0x7fffffff - 0.5) * 0.5)], { sampleRate: 16_000 }));
    const cases: Array<[string, () => unknown, string | null, number, string, string | RegExp]> = [
      ['neither field', () => ({}), TEST_API_KEY, 400, 'Bad request', 'Either audio_url or audio_base64 must be provided'],
      ['empty fields', () => ({ audio_url: '', audio_base64: '' }), TEST_API_KEY, 400, 'Bad request', 'Either audio_url or audio_base64 must be provided'],
      ['no key', () => ({ audio_base64: silence }), null, 401, 'Unauthorized', 'Invalid or missing API key'],
      ['a wrong key', () => ({ audio_base64: silence }), 'dd-ffffffffffffffffffffffffffffffff', 401, 'Unauthorized', 'Invalid or missing API key'],
      ['a non-string field', () => ({ audio_url: 42 }), TEST_API_KEY, 400, 'Bad request', 'the body must be a JSON object with audio_url and/or audio_base64 strings'],
      ['invalid base64', () => ({ audio_base64: 'UklG*RiQ=' }), TEST_API_KEY, 400, 'Bad request', 'audio_base64 is not valid base64: invalid base64 character "*" at position 4'],
      ['base64 that is not audio', () => ({ audio_base64: b64(Buffer.from('plain text')) }), TEST_API_KEY, 400, 'Bad request', /^audio could not be decoded: not a supported audio file/],
      ['silence', () => ({ audio_base64: silence }), TEST_API_KEY, 422, 'Unprocessable audio', 'audio is silent (loudest passage digital silence)'],
      ['noise without voiced frames', () => ({ audio_base64: hiss }), TEST_API_KEY, 422, 'Unprocessable audio', /^no voiced speech found/],
      ['an unsupported URL scheme', () => ({ audio_url: 'ftp://example.com/a.wav' }), TEST_API_KEY, 400, 'Bad request', 'audio_url must be an http, https or s3 URL, got ftp:'],
      ['a malformed URL', () => ({ audio_url: 'not a url' }), TEST_API_KEY, 400, 'Bad request', 'audio_url is not a valid URL: "not a url"'],
      ['an s3 URL with no endpoint configured', () => ({ audio_url: 's3://bucket/voices/espeak-en-m3.wav' }), TEST_API_KEY, 400, 'Bad request',
        's3:// audio_url needs an S3-compatible endpoint, and none is configured: set VOXPIPE_S3_ENDPOINT (path-style GET {endpoint}/{bucket}/{key})'],
      ['a URL that answers 404', () => ({ audio_url: `${filesUrl}/bucket/missing.wav` }), TEST_API_KEY, 400, 'Bad request', 'audio_url could not be fetched: HTTP 404'],
      ['a URL declaring 40 MB', () => ({ audio_url: `${filesUrl}/huge` }), TEST_API_KEY, 413, 'Payload too large', 'the audio at audio_url exceeds the 32 MB limit'],
      ['a body that is not JSON', () => '{"audio_url": ', TEST_API_KEY, 400, 'Bad request', /JSON/],
    ];
    it.each(cases)('%s', async (_name, body, key, status, error, detail) => {
      const [code, json] = await classify(body(), key);
      expect(code).toBe(status);
      expect(Object.keys(json).sort()).toEqual(['detail', 'error']);
      expect(json.error).toBe(error);
      expect(json.detail).toMatch(detail);
    });

    it('an s3 URL without a key is refused', async () => {
      process.env[S3_ENDPOINT_ENV] = filesUrl;
      expect(await classify({ audio_url: 's3://bucket' })).toEqual([400, { error: 'Bad request', detail: 'audio_url must have the form s3://bucket/key' }]);
    });

    it('surfaces them as typed client errors', async () => {
      await expect(client.classify({ audioBase64: silence })).rejects.toBeInstanceOf(ValidationError);
      await expect(client.classify({ audioBase64: silence })).rejects.toMatchObject({ code: 'validation_failed', status: 422, message: 'Unprocessable audio: audio is silent (loudest passage digital silence)' });
      await expect(client.classify({ audioUrl: 'ftp://x/y' })).rejects.toBeInstanceOf(BadRequestError);
      await expect(new GenderClient({ baseUrl: server.url, maxRetries: 0 }).classify({ audioBase64: silence })).rejects.toBeInstanceOf(AuthenticationError);
      await expect(client.classify({ audioUrl: '' })).rejects.toMatchObject({ code: 'invalid_argument' });
    });
  });
});
