/** Per-key token buckets for the live API (429 when empty). */

/** Bucket parameters. */
export interface RateLimitOptions {
  /** Tokens added per second. */
  ratePerSecond: number;
  /** Bucket size (largest burst). */
  burst: number;
}

/** Defaults, overridable with `VOXPIPE_LIVE_RATE` and `VOXPIPE_LIVE_BURST`. */
export const LIVE_RATE_LIMIT_DEFAULTS: RateLimitOptions = { ratePerSecond: 20, burst: 40 };

/** A positive number from the environment variable `name`, or undefined when unset or invalid. */
export function positiveFromEnv(name: string, env: NodeJS.ProcessEnv = process.env): number | undefined {
  const raw = env[name];
  const n = Number(raw);
  return raw !== undefined && Number.isFinite(n) && n > 0 ? n : undefined;
}

/** Reads the live rate limit from the environment (invalid values fall back to the defaults). */
export function rateLimitFromEnv(env: NodeJS.ProcessEnv = process.env): RateLimitOptions {
  return {
    ratePerSecond: positiveFromEnv('VOXPIPE_LIVE_RATE', env) ?? LIVE_RATE_LIMIT_DEFAULTS.ratePerSecond,
    burst: positiveFromEnv('VOXPIPE_LIVE_BURST', env) ?? LIVE_RATE_LIMIT_DEFAULTS.burst,
  };
}

/** Token buckets keyed by API key; the map is bounded by evicting the least recently refilled bucket. */
export class KeyedTokenBucket {
  readonly #options: RateLimitOptions;
  readonly #buckets = new Map<string, { tokens: number; at: number }>();
  static readonly MAX_KEYS = 10_000;

  constructor(options: RateLimitOptions) {
    this.#options = options;
  }

  /** Takes one token for `key`; returns 0 when allowed, else the milliseconds until a token is available. */
  take(key: string, now = Date.now()): number {
    const { ratePerSecond, burst } = this.#options;
    const bucket = this.#buckets.get(key) ?? { tokens: burst, at: now };
    this.#buckets.delete(key);
    bucket.tokens = Math.min(burst, bucket.tokens + ((now - bucket.at) / 1000) * ratePerSecond);
    bucket.at = now;
    this.#buckets.set(key, bucket);
    if (this.#buckets.size > KeyedTokenBucket.MAX_KEYS) this.#buckets.delete(this.#buckets.keys().next().value as string);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return 0;
    }
    return Math.ceil(((1 - bucket.tokens) / ratePerSecond) * 1000);
  }
}
