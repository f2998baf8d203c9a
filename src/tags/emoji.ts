/**
 * Emoji semantics of the inline tag grammar: country flags map to that country's main locale, globes to a
 * regional locale, the neutral face returns to the base voice. Emotion emoji are bound per voice by the
 * service configuration (see `EmotionCatalog.emotionForEmoji`), not here.
 */

/** Country (ISO 3166-1 alpha-2) → the locale a flag of that country switches to. */
export const FLAG_LOCALES: Readonly<Record<string, string>> = {
  US: 'en-US', GB: 'en-GB', AU: 'en-AU', CA: 'en-CA', NZ: 'en-NZ', IE: 'en-IE', ZA: 'en-ZA', IN: 'hi-IN', SG: 'en-SG',
  FR: 'fr-FR', BE: 'fr-BE', CH: 'de-CH', DE: 'de-DE', AT: 'de-AT', IT: 'it-IT', ES: 'es-ES', MX: 'es-MX', AR: 'es-AR',
  CO: 'es-CO', CL: 'es-CL', PE: 'es-PE', PT: 'pt-PT', BR: 'pt-BR', NL: 'nl-NL', SE: 'sv-SE', NO: 'nb-NO', DK: 'da-DK',
  FI: 'fi-FI', IS: 'is-IS', PL: 'pl-PL', CZ: 'cs-CZ', SK: 'sk-SK', HU: 'hu-HU', RO: 'ro-RO', BG: 'bg-BG', GR: 'el-GR',
  TR: 'tr-TR', RU: 'ru-RU', UA: 'uk-UA', IL: 'he-IL', SA: 'ar-SA', AE: 'ar-AE', EG: 'ar-EG', IR: 'fa-IR', PK: 'ur-PK',
  BD: 'bn-BD', CN: 'zh-CN', TW: 'zh-TW', HK: 'zh-HK', JP: 'ja-JP', KR: 'ko-KR', VN: 'vi-VN', TH: 'th-TH', ID: 'id-ID',
  MY: 'ms-MY', PH: 'fil-PH', KE: 'sw-KE', NG: 'en-NG', HR: 'hr-HR', RS: 'sr-RS', SI: 'sl-SI', LT: 'lt-LT', LV: 'lv-LV',
  EE: 'et-EE',
};

/** Globe emoji → regional locale: Americas, Europe-Africa, Asia-Australia, and the meridian globe (international English). */
export const GLOBE_LOCALES: Readonly<Record<string, string>> = {
  '🌎': 'en-US',
  '🌍': 'en-GB',
  '🌏': 'en-AU',
  '🌐': 'en-US',
};

/** The emoji that returns to the base voice. */
export const NEUTRAL_FACE = '😐';

/** What an emoji grapheme means to the tag grammar. */
export type EmojiKind = 'flag' | 'globe' | 'neutral' | 'other';

const FLAG = /^\p{Regional_Indicator}{2}$/u;
const PICTOGRAPHIC = /\p{Extended_Pictographic}/u;

/** Classifies a grapheme cluster, or returns undefined when it is not an emoji. */
export function classifyEmoji(grapheme: string): { kind: EmojiKind; locale?: string } | undefined {
  if (FLAG.test(grapheme)) {
    const country = [...grapheme].map((c) => String.fromCharCode((c.codePointAt(0) ?? 0) - 0x1f1e6 + 65)).join('');
    const locale = FLAG_LOCALES[country];
    return locale ? { kind: 'flag', locale } : { kind: 'flag' };
  }
  const base = grapheme.replace(/\uFE0F/g, '');
  const globe = GLOBE_LOCALES[base];
  if (globe) return { kind: 'globe', locale: globe };
  if (base === NEUTRAL_FACE) return { kind: 'neutral' };
  if (PICTOGRAPHIC.test(grapheme)) return { kind: 'other' };
  return undefined;
}
