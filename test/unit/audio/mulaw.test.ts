import { describe, expect, it } from 'vitest';
import { decodeMulaw, encodeMulaw, linearToMulaw, mulawToLinear, MULAW_SILENCE } from '../../../src/audio/mulaw.js';

/** ITU-T G.191 `ulaw_compress`, transcribed literally (16-bit input, 14-bit companding core). */
function g191Compress(lin: number): number {
  let absno = lin < 0 ? (~lin >> 2) + 33 : (lin >> 2) + 33;
  if (absno > 0x1fff) absno = 0x1fff;
  let i = absno >> 6;
  let segno = 1;
  while (i !== 0) {
    segno++;
    i >>= 1;
  }
  const highNibble = 0x0008 - segno;
  let lowNibble = (absno >> segno) & 0x000f;
  lowNibble = 0x000f - lowNibble;
  let log = (highNibble << 4) | lowNibble;
  if (lin >= 0) log |= 0x0080;
  return log;
}

/** ITU-T G.191 `ulaw_expand`, transcribed literally. */
function g191Expand(log: number): number {
  const sign = log < 0x0080 ? -1 : 1;
  let mantissa = ~log;
  const exponent = (mantissa >> 4) & 0x0007;
  const segment = exponent + 1;
  mantissa &= 0x000f;
  const step = 4 << segment;
  return (sign * ((0x0080 << exponent) + step * mantissa + step / 2 - 4 * 33)) | 0; // C int: no negative zero
}

describe('G.711 mu-law', () => {
  it('encodes all 65536 inputs exactly as the G.191 reference', () => {
    const all = new Int16Array(65536);
    for (let i = 0; i < 65536; i++) all[i] = i - 32768;
    const codes = encodeMulaw(all);
    let mismatches = 0;
    for (let i = 0; i < 65536; i++) if (codes[i] !== g191Compress(i - 32768)) mismatches++;
    expect(mismatches).toBe(0);
  });

  it('decodes all 256 codes exactly as the G.191 reference', () => {
    const codes = Uint8Array.from({ length: 256 }, (_, i) => i);
    expect(Array.from(decodeMulaw(codes))).toEqual(Array.from(codes, g191Expand));
  });

  it('matches published value pairs', () => {
    expect(linearToMulaw(0)).toBe(0xff);
    expect(MULAW_SILENCE).toBe(0xff);
    expect(linearToMulaw(-1)).toBe(0x7f); // one's-complement folding: -1 encodes like 0 on the negative side
    expect(linearToMulaw(-32768)).toBe(0x00);
    expect(linearToMulaw(32767)).toBe(0x80);
    expect(linearToMulaw(32124)).toBe(0x80);
    expect(linearToMulaw(1000)).toBe(0xce);
    expect(linearToMulaw(-1000)).toBe(0x4e);
    expect(mulawToLinear(0x00)).toBe(-32124);
    expect(mulawToLinear(0x80)).toBe(32124);
    expect(mulawToLinear(0xff)).toBe(0);
    expect(mulawToLinear(0x7f)).toBe(0);
    expect(mulawToLinear(0xce)).toBe(988);
  });

  it('is idempotent through decode/encode for every code except the negative zero', () => {
    for (let code = 0; code < 256; code++) {
      const again = linearToMulaw(mulawToLinear(code));
      expect(again).toBe(code === 0x7f ? 0xff : code);
    }
  });

  it('keeps the quantisation error within half a step of each segment', () => {
    for (let x = -32124; x <= 32124; x += 7) {
      const y = mulawToLinear(linearToMulaw(x));
      const segmentStep = 8 << Math.max(0, 31 - Math.clz32((Math.abs(x) + 132) >> 7));
      expect(Math.abs(y - x)).toBeLessThanOrEqual(segmentStep / 2 + 4);
    }
  });

  it('writes into a caller buffer', () => {
    const out = new Uint8Array(2);
    expect(encodeMulaw(Int16Array.of(0, -32768), out)).toBe(out);
    expect(Array.from(out)).toEqual([0xff, 0x00]);
  });
});
