/**
 * Diacritized text for `outputDiacritized`. The reference service has no Hebrew language model, so it adds
 * a simple rule-based pointing: a vowel point after each consonant letter that has none (patah, or shva
 * before the word's last letter; the matres lectionis ו and י take holam and hiriq). It looks and streams
 * like the hosted output and exercises clients, but it is not linguistically correct. Text without Hebrew
 * letters is returned unchanged. `targetGender` picks the second-person forms' pointing of the final letter
 * (qamats for female, shva for male) as the hosted service's gender hint does.
 */

const HEBREW_LETTER = /[\u05D0-\u05EA]/;
const POINT = /[\u0591-\u05C7]/;
const PATAH = '\u05B7';
const SHVA = '\u05B0';
const QAMATS = '\u05B8';
const HOLAM = '\u05B9';
const HIRIQ = '\u05B4';

/** Adds rule-based niqqud to the Hebrew letters of `text`. */
export function diacritize(text: string, targetGender?: string): string {
  if (!HEBREW_LETTER.test(text)) return text;
  let out = '';
  const chars = [...text];
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i] as string;
    out += ch;
    if (!HEBREW_LETTER.test(ch) || POINT.test(chars[i + 1] ?? '')) continue;
    const next = chars[i + 1] ?? '';
    const last = !HEBREW_LETTER.test(next);
    if (ch === 'ו') out += HOLAM;
    else if (ch === 'י') out += HIRIQ;
    else if (last) out += targetGender === 'female' ? QAMATS : '';
    else if (!HEBREW_LETTER.test(chars[i + 2] ?? '')) out += SHVA;
    else out += PATAH;
  }
  return out;
}
