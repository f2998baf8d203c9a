import { describe, expect, it } from 'vitest';
import { KeyedTokenBucket, LIVE_RATE_LIMIT_DEFAULTS, rateLimitFromEnv } from '../../../src/server/live/rate-limit.js';

describe('KeyedTokenBucket', () => {
  it('allows a burst, then refills at the rate, per key', () => {
    const bucket = new KeyedTokenBucket({ ratePerSecond: 2, burst: 2 });
    expect([bucket.take('a', 0), bucket.take('a', 0)]).toEqual([0, 0]);
    expect(bucket.take('a', 0)).toBe(500);
    expect(bucket.take('b', 0)).toBe(0);
    expect(bucket.take('a', 500)).toBe(0);
    expect(bucket.take('a', 500)).toBe(500);
    expect(bucket.take('a', 10_000)).toBe(0);
    expect(bucket.take('a', 10_000)).toBe(0);
    expect(bucket.take('a', 10_000)).toBeGreaterThan(0);
  });

  it('reads rate and burst from the environment, ignoring invalid values', () => {
    expect(rateLimitFromEnv({ VOXPIPE_LIVE_RATE: '5', VOXPIPE_LIVE_BURST: '7' })).toEqual({ ratePerSecond: 5, burst: 7 });
    expect(rateLimitFromEnv({ VOXPIPE_LIVE_RATE: 'fast', VOXPIPE_LIVE_BURST: '-1' })).toEqual(LIVE_RATE_LIMIT_DEFAULTS);
  });
});
