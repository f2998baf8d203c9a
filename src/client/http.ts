/**
 * HTTP core shared by every REST client: base URL and region hosts, `x-api-key` auth, JSON bodies,
 * timeouts and AbortSignal, retries with backoff and jitter through the one {@link shouldRetry} policy,
 * and HTTP failures mapped to typed errors by {@link errorFromHttpResponse}.
 */
import {
  AbortError,
  ConnectionError,
  InvalidArgumentError,
  TimeoutError,
  VoxpipeError,
  errorFromHttpResponse,
  shouldRetry,
} from '../errors.js';

/** Options shared by every HTTP client. */
export interface HttpClientOptions {
  /** Base URL, e.g. `http://127.0.0.1:8080`. Required: the library has no hidden network default. */
  baseUrl: string;
  /** API key sent as `x-api-key`. */
  apiKey?: string;
  /** Per-attempt timeout in milliseconds. Default 30 000. */
  timeoutMs?: number;
  /** Retries after the first attempt for retryable failures. Default 2. */
  maxRetries?: number;
  /** Custom fetch (tests, proxies). Default global fetch. */
  fetch?: typeof fetch;
  /** Extra headers on every request. */
  headers?: Record<string, string>;
}

/** One request. */
export interface HttpRequest {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  query?: Record<string, string | number | boolean | undefined>;
  /** JSON-serialized body. */
  body?: unknown;
  signal?: AbortSignal | undefined;
  /** Response handling: parsed JSON (default), raw bytes, or nothing. */
  responseType?: 'json' | 'bytes' | 'none';
  /** Overrides the client's retry count (0 for non-idempotent calls that must not repeat). */
  maxRetries?: number;
  timeoutMs?: number;
}

/** Low-level HTTP client; area clients wrap it. */
export class HttpClient {
  readonly baseUrl: string;
  readonly #apiKey: string | undefined;
  readonly #timeoutMs: number;
  readonly #maxRetries: number;
  readonly #fetch: typeof fetch;
  readonly #headers: Record<string, string>;

  constructor(options: HttpClientOptions) {
    if (!options.baseUrl) throw new InvalidArgumentError('baseUrl is required');
    let parsed: URL;
    try {
      parsed = new URL(options.baseUrl);
    } catch {
      throw new InvalidArgumentError(`baseUrl is not a valid URL: ${options.baseUrl}`);
    }
    this.baseUrl = parsed.toString().replace(/\/+$/, '');
    this.#apiKey = options.apiKey;
    this.#timeoutMs = options.timeoutMs ?? 30_000;
    this.#maxRetries = options.maxRetries ?? 2;
    this.#fetch = options.fetch ?? globalThis.fetch.bind(globalThis);
    this.#headers = options.headers ?? {};
  }

  /** Builds the absolute URL of `path` with `query` (undefined values dropped). */
  url(path: string, query?: HttpRequest['query']): string {
    const url = new URL(this.baseUrl + (path.startsWith('/') ? path : `/${path}`));
    for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
    return url.toString();
  }

  /** Sends `req`, retrying retryable failures; resolves to the parsed body. */
  async request<T>(req: HttpRequest): Promise<T> {
    const retries = req.maxRetries ?? this.#maxRetries;
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.#once<T>(req);
      } catch (error) {
        if (attempt >= retries || !shouldRetry(error) || req.signal?.aborted) throw error;
        const retryAfter = error instanceof VoxpipeError ? error.retryAfterMs : undefined;
        await sleep(retryAfter ?? backoffMs(attempt), req.signal);
      }
    }
  }

  async #once<T>(req: HttpRequest): Promise<T> {
    if (req.signal?.aborted) throw new AbortError();
    const timeout = AbortSignal.timeout(req.timeoutMs ?? this.#timeoutMs);
    const signal = req.signal ? AbortSignal.any([req.signal, timeout]) : timeout;
    const headers: Record<string, string> = { accept: 'application/json', ...this.#headers };
    if (this.#apiKey) headers['x-api-key'] = this.#apiKey;
    if (req.body !== undefined) headers['content-type'] = 'application/json';
    let res: Response;
    try {
      res = await this.#fetch(this.url(req.path, req.query), {
        method: req.method,
        headers,
        signal,
        ...(req.body === undefined ? {} : { body: JSON.stringify(req.body) }),
      });
    } catch (error) {
      if (req.signal?.aborted) throw new AbortError(undefined, { cause: error });
      if (timeout.aborted) throw new TimeoutError(`${req.method} ${req.path} timed out`, { cause: error });
      throw new ConnectionError('connection_failed', `${req.method} ${req.path} failed: ${(error as Error).message}`, { cause: error, retryable: true });
    }
    if (!res.ok) {
      const text = await res.text().catch(() => '');
      let body: unknown = text;
      try {
        body = text ? JSON.parse(text) : undefined;
      } catch {
        // keep the text body
      }
      throw errorFromHttpResponse(res.status, body, res.headers);
    }
    if (req.responseType === 'none' || res.status === 204) {
      await res.body?.cancel();
      return undefined as T;
    }
    if (req.responseType === 'bytes') return new Uint8Array(await res.arrayBuffer()) as T;
    const text = await res.text();
    return (text ? JSON.parse(text) : undefined) as T;
  }
}

/** Exponential backoff with full jitter: base 250 ms, cap 8 s. */
export function backoffMs(attempt: number, baseMs = 250, capMs = 8000): number {
  return Math.random() * Math.min(capMs, baseMs * 2 ** attempt);
}

/** Resolves after `ms`, or rejects with {@link AbortError} when `signal` aborts first. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new AbortError());
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(new AbortError());
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
