/**
 * `s3://bucket/key` locations read through an S3-compatible endpoint (`VOXPIPE_S3_ENDPOINT`) with anonymous
 * path-style GETs: `{endpoint}/{bucket}/{key}`. Used by dubbing source videos and gender-classification inputs.
 */

/** Environment variable naming the S3-compatible endpoint. */
export const S3_ENDPOINT_ENV = 'VOXPIPE_S3_ENDPOINT';

/** The path-style HTTP URL of `bucket`/`key` at `endpoint`; each key segment is percent-encoded. */
export function s3ObjectUrl(endpoint: string, bucket: string, key: string): URL {
  const path = key.replace(/^\/+/, '').split('/').map(encodeURIComponent).join('/');
  return new URL(`${endpoint.replace(/\/+$/, '')}/${bucket}/${path}`);
}
