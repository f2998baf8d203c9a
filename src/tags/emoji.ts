/**
 * Emoji semantics of the inline tag grammar (acceptEmojis): a country flag switches to that country's main
 * locale ({@link FLAG_LOCALES}; the England, Scotland and Wales flags too), a globe to a regional locale
 * ({@link GLOBE_LOCALES}), the neutral face returns to the base voice. Emotion emoji are bound per voice by
 * the service configuration (see `EmotionCatalog.emotionForEmoji`), not here.
 */

/** Country (ISO 3166-1 alpha-2) → the locale its flag switches to: the country's most widely spoken language. */
export const FLAG_LOCALES: Readonly<Record<string, string>> = {
  US: 'en-US', GB: 'en-GB', AU: 'en-AU', CA: 'en-CA', NZ: 'en-NZ', IE: 'en-IE', ZA: 'en-ZA', NG: 'en-NG', SG: 'en-SG',
  IN: 'hi-IN', FR: 'fr-FR', BE: 'nl-BE', LU: 'fr-LU', CH: 'de-CH', DE: 'de-DE', AT: 'de-AT', IT: 'it-IT', ES: 'es-ES',
  MX: 'es-MX', AR: 'es-AR', CO: 'es-CO', CL: 'es-CL', PE: 'es-PE', VE: 'es-VE', UY: 'es-UY', CU: 'es-CU', PT: 'pt-PT',
  BR: 'pt-BR', NL: 'nl-NL', SE: 'sv-SE', NO: 'nb-NO', DK: 'da-DK', FI: 'fi-FI', IS: 'is-IS', PL: 'pl-PL', CZ: 'cs-CZ',
  SK: 'sk-SK', HU: 'hu-HU', RO: 'ro-RO', BG: 'bg-BG', GR: 'el-GR', TR: 'tr-TR', RU: 'ru-RU', UA: 'uk-UA', HR: 'hr-HR',
  RS: 'sr-RS', SI: 'sl-SI', LT: 'lt-LT', LV: 'lv-LV', EE: 'et-EE', IL: 'he-IL', SA: 'ar-SA', AE: 'ar-AE', EG: 'ar-EG',
  MA: 'ar-MA', IR: 'fa-IR', PK: 'ur-PK', BD: 'bn-BD', CN: 'zh-CN', TW: 'zh-TW', HK: 'zh-HK', JP: 'ja-JP', KR: 'ko-KR',
  VN: 'vi-VN', TH: 'th-TH', ID: 'id-ID', MY: 'ms-MY', PH: 'fil-PH', KE: 'sw-KE', TZ: 'sw-TZ', ET: 'am-ET',
};

/** Subdivision flags (black flag + tag sequence, ISO 3166-2 code) → locale. */
export const SUBDIVISION_FLAG_LOCALES: Readonly<Record<string, string>> = { gbeng: 'en-GB', gbsct: 'en-GB', gbwls: 'cy-GB' };

/**
 * Globe → regional locale: 🌎 (Americas) en-US, 🌍 (Europe-Africa) en-GB, 🌏 (Asia-Australia) en-AU,
 * 🌐 (meridians: the world) en-US.
 */
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

/** Code points that make a grapheme cluster a possible emoji (global: finds them before segmenting text). */
export const EMOJI_CANDIDATES = /[\p{Extended_Pictographic}\p{Regional_Indicator}\u20E3]/gu;

const FLAG = /^\p{Regional_Indicator}{2}$/u;
const SUBDIVISION_FLAG = /^\u{1F3F4}((?:[\u{E0061}-\u{E007A}]|[\u{E0030}-\u{E0039}])+)\u{E007F}$/u;
const KEYCAP = /^[0-9#*]\uFE0F?\u20E3$/u;
const PICTOGRAPHIC = /\p{Extended_Pictographic}/u;
const PRESENTATION_SELECTORS = /[\uFE0E\uFE0F]/g;

/** An emoji without text/emoji presentation selectors (U+FE0E, U+FE0F): the key emoji bindings compare. */
export function emojiKey(emoji: string): string {
  return emoji.replace(PRESENTATION_SELECTORS, '');
}

/** Classifies a grapheme cluster, or returns undefined when it is not an emoji. */
export function classifyEmoji(grapheme: string): { kind: EmojiKind; locale?: string } | undefined {
  const key = emojiKey(grapheme);
  if (FLAG.test(key)) {
    const country = String.fromCharCode(...Array.from(key, (c) => (c.codePointAt(0) ?? 0) - 0x1f1e6 + 65));
    return flag(FLAG_LOCALES[country]);
  }
  const subdivision = SUBDIVISION_FLAG.exec(key);
  if (subdivision) {
    const code = String.fromCharCode(...Array.from(subdivision[1] ?? '', (c) => (c.codePointAt(0) ?? 0) - 0xe0000));
    return flag(SUBDIVISION_FLAG_LOCALES[code]);
  }
  const globe = GLOBE_LOCALES[key];
  if (globe) return { kind: 'globe', locale: globe };
  if (key === NEUTRAL_FACE) return { kind: 'neutral' };
  if (PICTOGRAPHIC.test(grapheme) || KEYCAP.test(grapheme)) return { kind: 'other' };
  return undefined;
}

function flag(locale: string | undefined): { kind: 'flag'; locale?: string } {
  return locale ? { kind: 'flag', locale } : { kind: 'flag' };
}
