import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AudioFetchError, fetchAudio, resolveAudioUrl } from '../../../src/server/gender/fetch-audio.js';

describe('resolveAudioUrl', () => {
  it('passes http(s) through and maps s3:// path-style onto the endpoint', () => {
    expect(resolveAudioUrl('https://example.com/a.wav?x=1', undefined).href).toBe('https://example.com/a.wav?x=1');
    expect(resolveAudioUrl('s3://bucket/dir/a b.wav', 'http://127.0.0.1:9000/').href).toBe('http://127.0.0.1:9000/bucket/dir/a%20b.wav');
    expect(resolveAudioUrl('s3://bucket/k.wav', 'http://minio.local/prefix').href).toBe('http://minio.local/prefix/bucket/k.wav');
  });

  it.each([
    ['file:///etc/passwd', 'http://x', 'audio_url must be an http, https or s3 URL, got file:'],
    ['s3://bucket/key', undefined, /^s3:\/\/ audio_url needs an S3-compatible endpoint/],
    ['s3://bucket/', 'http://x', 'audio_url must have the form s3://bucket/key'],
    ['::', undefined, 'audio_url is not a valid URL: "::"'],
  ] as const)('refuses %s with a 400', (url, endpoint, message) => {
    const error = (() => {
      try {
        resolveAudioUrl(url, endpoint);
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(AudioFetchError);
    expect((error as AudioFetchError).status).toBe(400);
    expect((error as Error).message).toMatch(message);
  });
});

describe('fetchAudio', () => {
  let server: Server;
  let base: string;
  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url === '/slow') return; // never answers
      if (req.url === '/chunked') {
        // No content-length: the cap is enforced while streaming.
        res.writeHead(200);
        res.write(Buffer.alloc(600));
        res.end(Buffer.alloc(600));
        return;
      }
      if (req.url === '/redirect') return void res.writeHead(302, { location: '/ok' }).end();
      if (req.url === '/ok') return void res.writeHead(200).end(Buffer.from('RIFFdata'));
      res.writeHead(500).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const options = { maxBytes: 1000, timeoutMs: 2000, s3Endpoint: undefined };

  it('follows redirects and returns the body', async () => {
    expect(Buffer.from(await fetchAudio(`${base}/redirect`, options)).toString()).toBe('RIFFdata');
  });

  it('stops reading a body without content-length once it passes the cap (413)', async () => {
    await expect(fetchAudio(`${base}/chunked`, options)).rejects.toMatchObject({ status: 413 });
  });

  it('times out (504) and reports upstream failures (400)', async () => {
    await expect(fetchAudio(`${base}/slow`, { ...options, timeoutMs: 150 })).rejects.toMatchObject({ status: 504, message: 'fetching audio_url timed out after 150 ms' });
    await expect(fetchAudio(`${base}/error`, options)).rejects.toMatchObject({ status: 400, message: 'audio_url could not be fetched: HTTP 500' });
    await expect(fetchAudio('http://127.0.0.1:1/nothing-listens', options)).rejects.toMatchObject({ status: 400, message: /^audio_url could not be fetched: / });
  });
});
