/**
 * Opaque page tokens of `GET /dubbing/jobs`: base64url of `v1:<seq>`, where `seq` is the insertion order of
 * the last job on the page. Pages run newest first, so the next page holds jobs with a smaller `seq`; jobs
 * created meanwhile never shift a page that was already handed out.
 */

/** Token for the page after the job with insertion order `seq`. */
export function encodePageToken(seq: number): string {
  return Buffer.from(`v1:${seq}`, 'utf8').toString('base64url');
}

/** The `seq` a token carries, or undefined when it is not one of ours. */
export function decodePageToken(token: string): number | undefined {
  if (!/^[A-Za-z0-9_-]+$/.test(token)) return undefined;
  const match = /^v1:(\d{1,15})$/.exec(Buffer.from(token, 'base64url').toString('utf8'));
  const seq = match ? Number(match[1]) : NaN;
  return Number.isSafeInteger(seq) && seq > 0 ? seq : undefined;
}
