/**
 * G.711 mu-law companding, bit-exact with the ITU-T G.191 reference implementation (`ulaw_compress` /
 * `ulaw_expand`): negative samples are folded with a one's complement (so -1 encodes like 0), magnitudes are
 * clipped at 32635, and decoding yields the G.191 16-bit values (±32124 at the extremes, 0 for 0xFF/0x7F).
 * Both directions are table lookups: 64 KiB for encoding, 512 bytes for decoding.
 */

/** Mu-law byte of digital silence (linear 0). */
export const MULAW_SILENCE = 0xff;

const BIAS = 0x84;
const CLIP = 32635;

/** Encodes one 16-bit sample (G.191 rules); the table below is built from this. */
function encodeSample(sample: number): number {
  const negative = sample < 0;
  const magnitude = Math.min(negative ? ~sample : sample, CLIP) + BIAS;
  const exponent = 24 - Math.clz32(magnitude); // position of the top bit, minus 7: 0..7
  const mantissa = (magnitude >> (exponent + 3)) & 0x0f;
  return (negative ? 0 : 0x80) | (~((exponent << 4) | mantissa) & 0x7f);
}

const ENCODE = new Uint8Array(65536);
for (let i = 0; i < 65536; i++) ENCODE[i] = encodeSample((i << 16) >> 16);

const DECODE = new Int16Array(256);
for (let code = 0; code < 256; code++) {
  const inverted = ~code & 0xff;
  const exponent = (inverted >> 4) & 0x07;
  const magnitude = (((inverted & 0x0f) << 3) + BIAS) << exponent;
  DECODE[code] = code & 0x80 ? magnitude - BIAS : BIAS - magnitude;
}

/** Encodes one 16-bit linear sample to its mu-law byte. */
export function linearToMulaw(sample: number): number {
  return ENCODE[sample & 0xffff] as number;
}

/** Decodes one mu-law byte to its 16-bit linear sample. */
export function mulawToLinear(code: number): number {
  return DECODE[code & 0xff] as number;
}

/** Encodes 16-bit PCM to mu-law bytes, one byte per sample; writes into `out` when given (same length). */
export function encodeMulaw(pcm: Int16Array, out: Uint8Array = new Uint8Array(pcm.length)): Uint8Array {
  for (let i = 0; i < pcm.length; i++) out[i] = ENCODE[(pcm[i] as number) & 0xffff] as number;
  return out;
}

/** Decodes mu-law bytes to 16-bit PCM; writes into `out` when given (same length). */
export function decodeMulaw(bytes: Uint8Array, out: Int16Array = new Int16Array(bytes.length)): Int16Array {
  for (let i = 0; i < bytes.length; i++) out[i] = DECODE[bytes[i] as number] as number;
  return out;
}
