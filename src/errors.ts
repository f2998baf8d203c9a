/**
 * One error hierarchy for the whole library. Every error carries a stable `code` string (documented in
 * `ERROR_CODES`) and a `retryable` flag; HTTP failures are mapped to subclasses in one factory,
 * {@link errorFromHttpResponse}, and {@link shouldRetry} is the single retry policy.
 */

/** Every stable error code the library can produce, with a one-line meaning (kept in sync with docs by a test). */
export const ERROR_CODES = {
  bad_request: 'The request body or parameters were rejected (HTTP 400).',
  unauthorized: 'Missing or invalid API key (HTTP 401, or a refused socket handshake).',
  payment_required: 'The account has insufficient credits (HTTP 402).',
  forbidden: 'The feature is not enabled for the account (HTTP 403).',
  not_found: 'The resource does not exist (HTTP 404).',
  conflict: 'The request conflicts with the resource state (HTTP 409).',
  payload_too_large: 'The request body is larger than the service accepts (HTTP 413).',
  validation_failed: 'The request failed validation (HTTP 422); see `details`.',
  rate_limited: 'Too many requests (HTTP 429); honour `retryAfterMs`.',
  server_error: 'The service failed (HTTP 5xx).',
  http_error: 'An HTTP status the library has no specific class for.',
  timeout: 'The operation did not complete in time.',
  aborted: 'The operation was cancelled through its AbortSignal.',
  connection_failed: 'The network connection could not be established or was lost.',
  connection_closed: 'The socket closed while an operation was in progress.',
  protocol_error: 'The peer sent a message that does not match the wire protocol.',
  session_error: 'The speech session reported a session-level `error` message.',
  generation_error: 'A worker-level error stopped one generation.',
  invalid_argument: 'A caller passed an argument the library rejects before any I/O.',
  invalid_audio: 'Audio data could not be decoded or has the wrong shape.',
  pool_closed: 'The session pool was closed.',
  pool_exhausted: 'No pooled session became available in time.',
  job_failed: 'A dubbing job being waited for ended in a failure status (INTAKE_FAILED, FAILURE).',
} as const;

/** A stable error code, see {@link ERROR_CODES}. */
export type ErrorCode = keyof typeof ERROR_CODES;

/** Options accepted by {@link VoxpipeError}. */
export interface VoxpipeErrorOptions {
  /** Whether repeating the same operation may succeed. Defaults to false. */
  retryable?: boolean;
  /** HTTP status, when the error came from an HTTP response. */
  status?: number;
  /** Parsed response body or protocol message that caused the error. */
  body?: unknown;
  /** Milliseconds the server asked to wait before retrying (from Retry-After). */
  retryAfterMs?: number;
  /** The underlying cause. */
  cause?: unknown;
}

/** Base class of every error the library throws or emits. */
export class VoxpipeError extends Error {
  /** Stable machine-readable code. */
  readonly code: ErrorCode;
  /** Whether the operation may succeed if repeated. */
  readonly retryable: boolean;
  /** HTTP status, if any. */
  readonly status: number | undefined;
  /** Response body or protocol message that caused the error, if any. */
  readonly body: unknown;
  /** Server-requested retry delay in milliseconds, if any. */
  readonly retryAfterMs: number | undefined;

  constructor(code: ErrorCode, message: string, options: VoxpipeErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.retryable = options.retryable ?? false;
    this.status = options.status;
    this.body = options.body;
    this.retryAfterMs = options.retryAfterMs;
  }
}

/** HTTP 4xx/5xx failure. Subclasses narrow the status. */
export class HttpError extends VoxpipeError {}
/** HTTP 400. */
export class BadRequestError extends HttpError {}
/** HTTP 401 or a refused socket handshake. */
export class AuthenticationError extends HttpError {}
/** HTTP 402. */
export class PaymentRequiredError extends HttpError {}
/** HTTP 403. */
export class PermissionDeniedError extends HttpError {}
/** HTTP 404. */
export class NotFoundError extends HttpError {}
/** HTTP 409. */
export class ConflictError extends HttpError {}
/** HTTP 413. */
export class PayloadTooLargeError extends HttpError {}

/** One item of a FastAPI-style 422 body. */
export interface ValidationIssue {
  loc: Array<string | number>;
  msg: string;
  type: string;
}

/** HTTP 422; `details` holds the `detail` items when the body has them. */
export class ValidationError extends HttpError {
  /** The `detail` array of the 422 body (empty when the body had none). */
  readonly details: ValidationIssue[];
  /** The live API's `upstream` field (the provider's original error), when present. */
  readonly upstream: unknown;
  constructor(message: string, options: VoxpipeErrorOptions & { details?: ValidationIssue[]; upstream?: unknown } = {}) {
    super('validation_failed', message, options);
    this.details = options.details ?? [];
    this.upstream = options.upstream;
  }
}
/** HTTP 429. */
export class RateLimitError extends HttpError {}
/** HTTP 5xx. */
export class ServerError extends HttpError {}

/** Operation exceeded its time limit. */
export class TimeoutError extends VoxpipeError {
  constructor(message: string, options: VoxpipeErrorOptions = {}) {
    super('timeout', message, { retryable: true, ...options });
  }
}
/** Operation cancelled through an AbortSignal. */
export class AbortError extends VoxpipeError {
  constructor(message = 'The operation was aborted', options: VoxpipeErrorOptions = {}) {
    super('aborted', message, options);
  }
}
/** Network-level failure (refused, reset, dropped). */
export class ConnectionError extends VoxpipeError {}
/** The peer sent something the protocol does not allow. */
export class ProtocolError extends VoxpipeError {
  constructor(message: string, options: VoxpipeErrorOptions = {}) {
    super('protocol_error', message, options);
  }
}
/** A caller argument was rejected before any I/O. */
export class InvalidArgumentError extends VoxpipeError {
  constructor(message: string, options: VoxpipeErrorOptions = {}) {
    super('invalid_argument', message, options);
  }
}
/** Audio could not be decoded or has the wrong shape. */
export class InvalidAudioError extends VoxpipeError {
  constructor(message: string, options: VoxpipeErrorOptions = {}) {
    super('invalid_audio', message, options);
  }
}

/** Parses an HTTP Retry-After header (seconds or HTTP date) into milliseconds. */
export function parseRetryAfter(value: string | null | undefined, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Picks the most useful human message out of any of the service's error body shapes. */
export function messageFromBody(body: unknown, fallback: string): string {
  if (typeof body === 'string' && body.length > 0) return body;
  if (body && typeof body === 'object') {
    const b = body as Record<string, unknown>;
    if (typeof b.message === 'string') return b.message;
    if (typeof b.detail === 'string') return typeof b.error === 'string' ? `${b.error}: ${b.detail}` : b.detail;
    if (Array.isArray(b.detail)) {
      const first = b.detail[0] as { msg?: unknown; loc?: unknown } | undefined;
      if (first && typeof first.msg === 'string') {
        const loc = Array.isArray(first.loc) ? first.loc.join('.') : '';
        return loc ? `${loc}: ${first.msg}` : first.msg;
      }
    }
    if (typeof b.error === 'string') return b.error;
  }
  return fallback;
}

/** Maps an HTTP failure to the right {@link HttpError} subclass (the one place that knows the mapping). */
export function errorFromHttpResponse(status: number, body: unknown, headers?: { get(name: string): string | null }): HttpError {
  const message = messageFromBody(body, `HTTP ${status}`);
  const retryAfterMs = parseRetryAfter(headers?.get('retry-after'));
  const base: VoxpipeErrorOptions = { status, body, ...(retryAfterMs === undefined ? {} : { retryAfterMs }) };
  switch (status) {
    case 400:
      return new BadRequestError('bad_request', message, base);
    case 401:
      return new AuthenticationError('unauthorized', message, base);
    case 402:
      return new PaymentRequiredError('payment_required', message, base);
    case 403:
      return new PermissionDeniedError('forbidden', message, base);
    case 404:
      return new NotFoundError('not_found', message, base);
    case 408:
      return new HttpError('timeout', message, { ...base, retryable: true });
    case 409:
      return new ConflictError('conflict', message, base);
    case 413:
      return new PayloadTooLargeError('payload_too_large', message, base);
    case 422: {
      const b = (body ?? {}) as { detail?: unknown; upstream?: unknown };
      const details = Array.isArray(b.detail) ? (b.detail as ValidationIssue[]) : [];
      return new ValidationError(message, { ...base, details, upstream: b.upstream });
    }
    case 429:
      return new RateLimitError('rate_limited', message, { ...base, retryable: true });
    default:
      if (status >= 500) return new ServerError('server_error', message, { ...base, retryable: true });
      return new HttpError('http_error', message, base);
  }
}

/** The single retry policy: 408, 429 and 5xx are retryable, and so are network failures. */
export function shouldRetry(error: unknown): boolean {
  if (error instanceof VoxpipeError) {
    if (error.code === 'aborted') return false;
    return error.retryable || error.code === 'connection_failed';
  }
  return false;
}
