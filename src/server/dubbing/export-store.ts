/**
 * The development stand-in for S3 exports: `s3://bucket/key` maps to the local file `DATA_DIR/s3/bucket/key`.
 * Writes are atomic (temporary file + rename) so a job interrupted mid-write never leaves a partial product.
 */
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { dirname, join, resolve, sep } from 'node:path';
import { parseS3Uri } from '../../protocol/dubbing.js';

/** Local path of `s3://bucket/key` under `dataDir`. Throws on a malformed URI or one escaping the root. */
export function localS3Path(dataDir: string, uri: string): string {
  const parsed = parseS3Uri(uri);
  if ('error' in parsed) throw new Error(`invalid s3 path ${uri}: ${parsed.error}`);
  const root = resolve(dataDir, 's3');
  const path = resolve(root, parsed.bucket, ...parsed.key.split('/'));
  if (!path.startsWith(root + sep)) throw new Error(`s3 path ${uri} escapes the export root`);
  return path;
}

/** Writes `data` to `path` atomically, creating directories. */
export function writeFileAtomic(path: string, data: string | Uint8Array): void {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = join(dirname(path), `.${randomUUID()}.tmp`);
  writeFileSync(tmp, data);
  renameSync(tmp, path);
}
