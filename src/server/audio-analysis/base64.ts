/**
 * Strict base64 decoding of uploaded audio. Node's decoder silently skips invalid characters; this one
 * rejects them with the position, accepts the URL-safe alphabet, whitespace (line-wrapped base64) and a
 * `data:<mime>;base64,` prefix.
 */
import { InvalidAudioError } from '../../errors.js';

const DATA_URL = /^data:[^,]*;base64,/i;

/** Decodes `text`; throws {@link InvalidAudioError} saying what is wrong when it is not valid base64. */
export function decodeBase64Strict(text: string): Uint8Array {
  const body = text.replace(DATA_URL, '').replace(/\s+/g, '');
  if (body.length === 0) throw new InvalidAudioError('base64 data is empty');
  const bad = /[^A-Za-z0-9+/\-_=]/.exec(body);
  if (bad) throw new InvalidAudioError(`invalid base64 character ${JSON.stringify(bad[0])} at position ${bad.index}`);
  const padding = /=+$/.exec(body)?.[0].length ?? 0;
  if (padding > 2 || body.slice(0, body.length - padding).includes('=')) throw new InvalidAudioError('misplaced base64 padding');
  if (body.length % 4 === 1 || (padding > 0 && body.length % 4 !== 0)) throw new InvalidAudioError('truncated base64 data (length is not a valid multiple of 4)');
  return new Uint8Array(Buffer.from(body, body.includes('-') || body.includes('_') ? 'base64url' : 'base64'));
}
