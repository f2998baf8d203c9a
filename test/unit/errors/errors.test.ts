import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  AuthenticationError,
  ERROR_CODES,
  errorFromHttpResponse,
  parseRetryAfter,
  RateLimitError,
  ServerError,
  shouldRetry,
  ValidationError,
  VoxpipeError,
} from '../../../src/errors.js';

describe('error codes', () => {
  it('docs/errors.md lists exactly the codes in ERROR_CODES', () => {
    const doc = readFileSync(new URL('../../../docs/errors.md', import.meta.url), 'utf8');
    const documented = [...doc.matchAll(/^\| `([a-z_]+)` \|/gm)].map((m) => m[1]);
    expect(documented.sort()).toEqual(Object.keys(ERROR_CODES).sort());
  });

  it('maps HTTP statuses to subclasses with stable codes', () => {
    expect(errorFromHttpResponse(401, { message: 'bad key' })).toBeInstanceOf(AuthenticationError);
    expect(errorFromHttpResponse(401, { message: 'bad key' }).message).toBe('bad key');
    const v = errorFromHttpResponse(422, { detail: [{ loc: ['body', 'sourceLocale'], msg: 'Field required', type: 'missing' }] });
    expect(v).toBeInstanceOf(ValidationError);
    expect(v.code).toBe('validation_failed');
    expect(v.message).toBe('body.sourceLocale: Field required');
    expect((v as ValidationError).details).toHaveLength(1);
    const headers = new Headers({ 'retry-after': '2' });
    const r = errorFromHttpResponse(429, { error: 'slow down' }, headers);
    expect(r).toBeInstanceOf(RateLimitError);
    expect(r.retryAfterMs).toBe(2000);
    expect(errorFromHttpResponse(503, 'down')).toBeInstanceOf(ServerError);
    expect(errorFromHttpResponse(418, undefined).code).toBe('http_error');
    expect(errorFromHttpResponse(400, { error: 'Bad Request', detail: 'need audio' }).message).toBe('Bad Request: need audio');
  });

  it('retries only what can succeed on retry', () => {
    expect(shouldRetry(errorFromHttpResponse(429, {}))).toBe(true);
    expect(shouldRetry(errorFromHttpResponse(500, {}))).toBe(true);
    expect(shouldRetry(errorFromHttpResponse(408, {}))).toBe(true);
    expect(shouldRetry(errorFromHttpResponse(400, {}))).toBe(false);
    expect(shouldRetry(errorFromHttpResponse(422, {}))).toBe(false);
    expect(shouldRetry(new VoxpipeError('connection_failed', 'x'))).toBe(true);
    expect(shouldRetry(new VoxpipeError('aborted', 'x', { retryable: true }))).toBe(false);
    expect(shouldRetry(new Error('plain'))).toBe(false);
  });

  it('parses Retry-After seconds and dates', () => {
    expect(parseRetryAfter('3')).toBe(3000);
    expect(parseRetryAfter(new Date(10_000).toUTCString(), 4_000)).toBe(6000);
    expect(parseRetryAfter('soon')).toBeUndefined();
    expect(parseRetryAfter(null)).toBeUndefined();
  });
});
