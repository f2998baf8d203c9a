/**
 * Validates a job's source video by reading the head of the file (`Range: bytes=0-65535`, with a timeout and
 * a byte cap enforced while streaming) and recognising its container with {@link probeVideo}. `https://`
 * paths are read directly; `http://` only for loopback hosts when insecure sources are allowed; `s3://bucket/key`
 * through the configured S3-compatible endpoint as an anonymous path-style GET `{endpoint}/{bucket}/{key}`.
 */
import { isIP } from 'node:net';
import { parseS3Uri } from '../../protocol/dubbing.js';
import { s3ObjectUrl } from '../s3.js';
import { probeVideo, type VideoProbe } from './probe.js';
import type { DubbingSettings } from './settings.js';

/** Most redirects followed when reading a source video. */
const MAX_REDIRECTS = 5;

/** The source video cannot be used; `message` is meant for the client (a 422 `value_error`). */
export class SourceVideoError extends Error {
  override name = 'SourceVideoError';
}

/** What {@link inspectSourceVideo} found. */
export interface SourceVideoInfo extends VideoProbe {
  /** Bytes of the head that were read. */
  headBytes: number;
  /** Total file size, when the server said (Content-Range or Content-Length). */
  sizeBytes?: number;
}

function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '');
  if (host === 'localhost') return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  return host === '::1';
}

/** Maps a source path to the URL to read, or throws {@link SourceVideoError}. */
export function sourceVideoUrl(path: string, settings: Pick<DubbingSettings, 's3Endpoint' | 'allowInsecureSources'>): URL {
  if (path.startsWith('s3://')) {
    const parsed = parseS3Uri(path);
    if ('error' in parsed) throw new SourceVideoError(parsed.error);
    if (!settings.s3Endpoint) {
      throw new SourceVideoError('s3:// source videos need an S3-compatible endpoint and none is configured (set VOXPIPE_S3_ENDPOINT)');
    }
    return s3ObjectUrl(settings.s3Endpoint, parsed.bucket, parsed.key);
  }
  let url: URL;
  try {
    url = new URL(path);
  } catch {
    throw new SourceVideoError('sourceVideoPath is not a valid URL');
  }
  if (url.protocol === 'https:') return url;
  if (url.protocol === 'http:' && settings.allowInsecureSources && isLoopback(url.hostname)) return url;
  if (url.protocol === 'http:') throw new SourceVideoError('sourceVideoPath must use https:// (plain http is accepted only for loopback hosts with VOXPIPE_ALLOW_INSECURE_SOURCES=1)');
  throw new SourceVideoError('sourceVideoPath must be an s3:// or https:// path');
}

/** Reads bytes `[offset, offset + length)` of `url`; `undefined` when the server ignores the range. */
async function readRange(url: URL, offset: number, length: number, settings: DubbingSettings, signal: AbortSignal | undefined): Promise<{ bytes: Uint8Array; status: number; sizeBytes?: number } | undefined> {
  const { sourceTimeoutMs: timeoutMs, allowInsecureSources } = settings;
  const timeout = AbortSignal.timeout(timeoutMs);
  const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
  let res: Response | undefined;
  // Redirects are followed by hand so that each hop is checked before anything connects to it.
  for (let hops = 0, at = url; ; hops++) {
    try {
      res = await fetch(at, { headers: { range: `bytes=${offset}-${offset + length - 1}` }, signal: combined, redirect: 'manual' });
    } catch (error) {
      if (timeout.aborted) throw new SourceVideoError(`reading the source video timed out after ${timeoutMs} ms`);
      throw new SourceVideoError(`the source video could not be read: ${(error as Error).message}`);
    }
    const location = res.headers.get('location');
    if (res.status < 300 || res.status >= 400 || !location) break;
    await res.body?.cancel();
    if (hops >= MAX_REDIRECTS) throw new SourceVideoError(`the source video redirects more than ${MAX_REDIRECTS} times`);
    try {
      at = sourceVideoUrl(new URL(location, at).toString(), { s3Endpoint: undefined, allowInsecureSources });
    } catch (error) {
      throw new SourceVideoError(`the source video redirects to a refused location: ${(error as Error).message}`);
    }
  }
  if (res.status === 404 || res.status === 403) {
    await res.body?.cancel();
    throw new SourceVideoError(`the source video was not found (HTTP ${res.status})`);
  }
  if (res.status === 416 && offset === 0) {
    await res.body?.cancel();
    throw new SourceVideoError('the source video is empty');
  }
  if (!res.ok) {
    await res.body?.cancel();
    throw new SourceVideoError(`the source video could not be read (HTTP ${res.status})`);
  }
  if (offset > 0 && res.status !== 206) {
    await res.body?.cancel();
    return undefined;
  }
  const total = /\/(\d+)$/.exec(res.headers.get('content-range') ?? '')?.[1] ?? (res.status === 200 ? res.headers.get('content-length') : null);
  const bytes = new Uint8Array(length);
  let filled = 0;
  try {
    const reader = res.body?.getReader();
    while (reader && filled < length) {
      const { done, value } = await reader.read();
      if (done) break;
      const take = Math.min(value.length, length - filled);
      bytes.set(value.subarray(0, take), filled);
      filled += take;
    }
    await reader?.cancel();
  } catch (error) {
    if (timeout.aborted) throw new SourceVideoError(`reading the source video timed out after ${timeoutMs} ms`);
    throw new SourceVideoError(`the source video could not be read: ${(error as Error).message}`);
  }
  const out = { bytes: bytes.subarray(0, filled), status: res.status };
  return total === null || total === undefined ? out : { ...out, sizeBytes: Number(total) };
}

/** Reads the head of the source video and recognises its container; throws {@link SourceVideoError} when it is not a video. */
export async function inspectSourceVideo(path: string, settings: DubbingSettings, signal?: AbortSignal): Promise<SourceVideoInfo> {
  const url = sourceVideoUrl(path, settings);
  const head = await readRange(url, 0, settings.sourceHeadBytes, settings, signal);
  if (!head || head.bytes.length === 0) throw new SourceVideoError('the source video is empty');
  const ranged = head.status === 206;
  const probe = await probeVideo(head.bytes, ranged ? async (offset, length) => (await readRange(url, offset, length, settings, signal))?.bytes : undefined);
  if (!probe) {
    throw new SourceVideoError('the source video is not a recognised video container (expected MP4/MOV, Matroska/WebM, MPEG-TS or AVI)');
  }
  const info: SourceVideoInfo = { ...probe, headBytes: head.bytes.length };
  if (head.sizeBytes !== undefined) info.sizeBytes = head.sizeBytes;
  return info;
}
