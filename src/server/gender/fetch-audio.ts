/**
 * Fetches the audio named by a classification request's `audio_url`: http(s) directly, `s3://bucket/key`
 * through the S3-compatible endpoint in `VOXPIPE_S3_ENDPOINT` (anonymous path-style GET
 * `{endpoint}/{bucket}/{key}`), with a byte cap enforced while streaming and a timeout.
 */
import { S3_ENDPOINT_ENV, s3ObjectUrl } from '../s3.js';

/** A fetch that failed for a reason the caller should hear about, with the HTTP status to answer with. */
export class AudioFetchError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'AudioFetchError';
  }
}

/** Options of {@link fetchAudio}. */
export interface FetchAudioOptions {
  /** Largest accepted body, bytes. */
  maxBytes: number;
  /** Whole-transfer timeout, ms. */
  timeoutMs: number;
  /** S3-compatible endpoint for `s3://` URLs; undefined when none is configured. */
  s3Endpoint: string | undefined;
}

export { S3_ENDPOINT_ENV } from '../s3.js';

/** Resolves `audioUrl` to the http(s) URL to GET. */
export function resolveAudioUrl(audioUrl: string, s3Endpoint: string | undefined): URL {
  let url: URL;
  try {
    url = new URL(audioUrl);
  } catch {
    throw new AudioFetchError(400, `audio_url is not a valid URL: ${JSON.stringify(audioUrl)}`);
  }
  if (url.protocol === 'http:' || url.protocol === 'https:') return url;
  if (url.protocol !== 's3:') throw new AudioFetchError(400, `audio_url must be an http, https or s3 URL, got ${url.protocol.slice(0, -1)}:`);
  if (!s3Endpoint) {
    throw new AudioFetchError(400, `s3:// audio_url needs an S3-compatible endpoint, and none is configured: set ${S3_ENDPOINT_ENV} (path-style GET {endpoint}/{bucket}/{key})`);
  }
  const key = decodeURIComponent(url.pathname.replace(/^\/+/, ''));
  if (!url.hostname || !key) throw new AudioFetchError(400, 'audio_url must have the form s3://bucket/key');
  return s3ObjectUrl(s3Endpoint, url.hostname, key);
}

/** Downloads `audioUrl`. Throws {@link AudioFetchError} for every failure. */
export async function fetchAudio(audioUrl: string, options: FetchAudioOptions): Promise<Uint8Array> {
  const url = resolveAudioUrl(audioUrl, options.s3Endpoint);
  const signal = AbortSignal.timeout(options.timeoutMs);
  try {
    const res = await fetch(url, { signal, redirect: 'follow' });
    if (!res.ok) {
      await res.body?.cancel();
      throw new AudioFetchError(400, `audio_url could not be fetched: HTTP ${res.status}`);
    }
    const declared = Number(res.headers.get('content-length') ?? NaN);
    if (declared > options.maxBytes) {
      await res.body?.cancel();
      throw tooLarge(options.maxBytes);
    }
    const parts: Uint8Array[] = [];
    let total = 0;
    for await (const part of res.body ?? []) {
      total += part.length;
      if (total > options.maxBytes) throw tooLarge(options.maxBytes);
      parts.push(part);
    }
    return new Uint8Array(Buffer.concat(parts, total));
  } catch (error) {
    if (error instanceof AudioFetchError) throw error;
    if (signal.aborted) throw new AudioFetchError(504, `fetching audio_url timed out after ${options.timeoutMs} ms`);
    throw new AudioFetchError(400, `audio_url could not be fetched: ${(error as Error).message}`);
  }
}

function tooLarge(maxBytes: number): AudioFetchError {
  return new AudioFetchError(413, `the audio at audio_url exceeds the ${maxBytes / (1024 * 1024)} MB limit`);
}
