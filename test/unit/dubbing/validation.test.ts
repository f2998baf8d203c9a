import { describe, expect, it } from 'vitest';
import { dubbingDateTimeSchema, dubbingJobRequestSchema, parseS3Uri, resolveLanguageRegion } from '../../../src/protocol/dubbing.js';
import { validationBody } from '../../../src/server/dubbing/fastapi-errors.js';
import { decodePageToken, encodePageToken } from '../../../src/server/dubbing/page-token.js';
import { localS3Path } from '../../../src/server/dubbing/export-store.js';

describe('dubbing validation pieces', () => {
  it('resolves locales to canonical language[-script]-region tags', () => {
    expect(resolveLanguageRegion('en-us')).toEqual({ locale: 'en-US' });
    expect(resolveLanguageRegion('iw-IL')).toEqual({ locale: 'he-IL' });
    expect(resolveLanguageRegion('zh-hant-tw')).toEqual({ locale: 'zh-Hant-TW' });
    expect(resolveLanguageRegion('es-419')).toEqual({ locale: 'es-419' });
    expect(resolveLanguageRegion('pt-BR-u-ca-gregory')).toEqual({ locale: 'pt-BR' });
    for (const bad of ['en', 'und-US', 'qaa-US', 'en-XX', 'en-AA', 'en_US', '']) expect(resolveLanguageRegion(bad)).toHaveProperty('error');
  });

  it('splits s3 URIs and refuses keys that could escape the export root', () => {
    expect(parseS3Uri('s3://my.bucket-1/a/b.wav')).toEqual({ bucket: 'my.bucket-1', key: 'a/b.wav' });
    for (const bad of ['s3:/b/k', 'S3://bucket/k', 's3://bucket', 's3://bucket/a//b', 's3://bucket/./k', 's3://bucket/a\\b', 's3://UPPER/k']) expect(parseS3Uri(bad)).toHaveProperty('error');
    expect(localS3Path('/data', 's3://bucket/a/b.srt')).toBe('/data/s3/bucket/a/b.srt');
    expect(() => localS3Path('/data', 's3://bucket/../x')).toThrow();
  });

  it('maps zod issues to pydantic-style items under the given loc prefix', () => {
    const parsed = dubbingJobRequestSchema.safeParse({ sourceLocale: 1, targetLocale: 'es-ES', sourceVideoPath: 'https://x/v.mp4', mixType: 'LOUD', segments: [{ timestampStart: 0.5 }] }, { reportInput: true });
    expect(parsed.success).toBe(false);
    if (parsed.success) return;
    expect(validationBody(parsed.error, ['body']).detail.slice(0, 4)).toEqual([
      { loc: ['body', 'sourceLocale'], msg: 'Input should be a valid string', type: 'string_type' },
      { loc: ['body', 'mixType'], msg: "Input should be 'UN_STYLE' or 'REPLACEMENT'", type: 'enum' },
      { loc: ['body', 'segments', 0, 'timestampStart'], msg: 'Input should be a valid integer, got a number with a fractional part', type: 'int_from_float' },
      { loc: ['body', 'segments', 0, 'timestampEnd'], msg: 'Field required', type: 'missing' },
    ]);
  });

  it('reads date-times as pydantic does: date, optional time and zone, real calendar values only', () => {
    for (const ok of ['2024-07-01T12:00:00Z', '2024-07-01', '2024-07-01T12:00', '2024-07-01 12:00:00.123456+05:30', '2024-02-29T23:59:59-0800']) {
      expect(dubbingDateTimeSchema.safeParse(ok).success, ok).toBe(true);
    }
    for (const bad of ['2023-02-29', '2024-02-30', '2024-13-01', '2024-07-01T24:00:00Z', '2024-07-01T12:60', '2024-07-01T12:00:00+25:00', '01/07/2024', 'tomorrow', '']) {
      expect(dubbingDateTimeSchema.safeParse(bad).success, bad).toBe(false);
    }
  });

  it('round-trips page tokens and refuses foreign ones', () => {
    expect(decodePageToken(encodePageToken(42))).toBe(42);
    for (const bad of ['', 'abc', Buffer.from('v1:0').toString('base64url'), Buffer.from('v2:5').toString('base64url'), 'a+b/']) expect(decodePageToken(bad)).toBeUndefined();
  });
});
