/**
 * Opens an authenticated WebSocket to a service socket (`/ws`, `/open`). A refused handshake becomes the
 * typed HTTP error of its status (401 → {@link AuthenticationError}); a network failure a retryable
 * `connection_failed`; the time limit a {@link TimeoutError}; the signal an {@link AbortError}.
 */
import type { IncomingMessage } from 'node:http';
import WebSocket from 'ws';
import { AbortError, ConnectionError, TimeoutError, errorFromHttpResponse, type VoxpipeError } from '../../errors.js';
import { withQueryKey } from './endpoint.js';

/** How the API key travels during the handshake. */
export type SocketAuth = 'header' | 'query';

/** Options of {@link openSocket}. */
export interface OpenSocketOptions {
  url: URL;
  apiKey?: string | undefined;
  /** `header` (default) sends `x-api-key`; `query` adds `?x-api-key=`. */
  auth?: SocketAuth | undefined;
  /** Handshake time limit. Default 10 000 ms. */
  timeoutMs?: number | undefined;
  signal?: AbortSignal | undefined;
  /**
   * Receives every message from the start. Attached before the handshake completes because a server's
   * first frame can be emitted before a caller awaiting the open socket gets to run.
   */
  onMessage?: ((data: Buffer) => void) | undefined;
}

/** Opens the socket and resolves once the handshake completed. */
export function openSocket(options: OpenSocketOptions): Promise<WebSocket> {
  if (options.signal?.aborted) return Promise.reject(new AbortError());
  const url = options.apiKey && options.auth === 'query' ? withQueryKey(options.url, options.apiKey) : options.url;
  const headers: Record<string, string> = options.apiKey && options.auth !== 'query' ? { 'x-api-key': options.apiKey } : {};
  const ws = new WebSocket(url, { headers, perMessageDeflate: false });
  if (options.onMessage) ws.on('message', options.onMessage);
  return new Promise((resolve, reject) => {
    let settled = false;
    const finish = (error: VoxpipeError | undefined): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      ws.off('open', onOpen);
      if (error) {
        ws.on('error', () => {});
        ws.terminate();
        reject(error);
      } else resolve(ws);
    };
    const onOpen = (): void => finish(undefined);
    const onAbort = (): void => finish(new AbortError());
    const timer = setTimeout(() => finish(new TimeoutError(`handshake with ${options.url.host} timed out`)), options.timeoutMs ?? 10_000);
    options.signal?.addEventListener('abort', onAbort, { once: true });
    ws.once('open', onOpen);
    ws.once('unexpected-response', (_req, res: IncomingMessage) => {
      readBody(res).then((body) => finish(errorFromHttpResponse(res.statusCode ?? 0, body)), () => finish(errorFromHttpResponse(res.statusCode ?? 0, undefined)));
    });
    ws.once('error', (error) => {
      finish(new ConnectionError('connection_failed', `could not connect to ${options.url.host}: ${error.message}`, { cause: error, retryable: true }));
    });
  });
}

async function readBody(res: IncomingMessage): Promise<unknown> {
  const parts: Buffer[] = [];
  let size = 0;
  for await (const part of res as AsyncIterable<Buffer>) {
    size += part.length;
    if (size > 64 * 1024) break;
    parts.push(part);
  }
  const text = Buffer.concat(parts).toString('utf8');
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
