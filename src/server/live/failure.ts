/** A live API failure with its HTTP status and wire body ({@link LiveErrorBody}). */
import type { LiveErrorBody } from '../../protocol/live.js';

/** Thrown by live handlers; the area's error handler sends `body` with `status`. */
export class LiveFailure extends Error {
  readonly status: number;
  readonly body: LiveErrorBody;
  readonly retryAfterMs: number | undefined;

  constructor(status: number, code: string, message: string, extra: Omit<LiveErrorBody, 'message' | 'code'> = {}, retryAfterMs?: number) {
    super(message);
    this.status = status;
    this.body = { message, code, ...extra };
    this.retryAfterMs = retryAfterMs;
  }
}

/** Message of the per-account cap error: names PUT and DELETE as the way out. */
export function capMessage(cap: number): string {
  return `live service cap reached (${cap} services per account, counted whether running or not): replace an existing service's config with PUT /live/services/{serviceId} or delete unused services with DELETE /live/services/{serviceId}`;
}
