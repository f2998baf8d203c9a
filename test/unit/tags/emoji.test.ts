import { describe, expect, it } from 'vitest';
import { classifyEmoji, emojiKey, FLAG_LOCALES, GLOBE_LOCALES, openEmotionCatalog } from '../../../src/tags/index.js';
import { scan } from './scan-helpers.js';

/** The flag emoji of an ISO 3166-1 alpha-2 code. */
const flagOf = (country: string): string => String.fromCodePoint(...Array.from(country, (c) => 0x1f1e6 + c.charCodeAt(0) - 65));

describe('emoji classification', () => {
  it('maps country flags to their locale (the table covers at least 50 countries)', () => {
    expect(Object.keys(FLAG_LOCALES).length).toBeGreaterThanOrEqual(50);
    const expected: Record<string, string> = { FR: 'fr-FR', US: 'en-US', GB: 'en-GB', IL: 'he-IL', BR: 'pt-BR', MX: 'es-MX', DE: 'de-DE', JP: 'ja-JP', CN: 'zh-CN', IN: 'hi-IN' };
    for (const [country, locale] of Object.entries(expected)) expect(classifyEmoji(flagOf(country))).toEqual({ kind: 'flag', locale });
    for (const [country, locale] of Object.entries(FLAG_LOCALES)) {
      expect(locale).toMatch(/^[a-z]{2,3}-[A-Z]{2}$/);
      expect(locale.endsWith(`-${country}`)).toBe(true);
    }
  });

  it('keeps a flag with no known locale as a flag without locale', () => {
    expect(classifyEmoji(flagOf('AQ'))).toEqual({ kind: 'flag' });
    expect(classifyEmoji('🏴󠁵󠁳󠁴󠁸󠁿')).toEqual({ kind: 'flag' }); // US-TX subdivision flag
  });

  it('maps the England, Scotland and Wales flags', () => {
    expect(classifyEmoji('🏴󠁧󠁢󠁥󠁮󠁧󠁿')).toEqual({ kind: 'flag', locale: 'en-GB' });
    expect(classifyEmoji('🏴󠁧󠁢󠁳󠁣󠁴󠁿')).toEqual({ kind: 'flag', locale: 'en-GB' });
    expect(classifyEmoji('🏴󠁧󠁢󠁷󠁬󠁳󠁿')).toEqual({ kind: 'flag', locale: 'cy-GB' });
  });

  it('maps every globe to a regional locale, with or without VS16', () => {
    for (const [globe, locale] of Object.entries(GLOBE_LOCALES)) {
      expect(classifyEmoji(globe)).toEqual({ kind: 'globe', locale });
      expect(classifyEmoji(`${globe}\uFE0F`)).toEqual({ kind: 'globe', locale });
    }
    expect(Object.keys(GLOBE_LOCALES).sort()).toEqual(['🌍', '🌎', '🌏', '🌐'].sort());
  });

  it('knows the neutral face, other emoji and keycaps, and nothing else', () => {
    expect(classifyEmoji('😐')).toEqual({ kind: 'neutral' });
    for (const e of ['🎉', '👍🏽', '👨‍👩‍👧‍👦', '🏴‍☠️', '❤️', '1️⃣', '#⃣']) expect(classifyEmoji(e)).toEqual({ kind: 'other' });
    for (const t of ['a', '1', '#', ' ', 'é', '🏽', '\u200D']) expect(classifyEmoji(t)).toBeUndefined();
  });

  it('emojiKey drops presentation selectors only', () => {
    expect(emojiKey('☹️')).toBe('☹');
    expect(emojiKey('☹\uFE0E')).toBe('☹');
    expect(emojiKey('👍🏽')).toBe('👍🏽');
  });
});

describe('scanner emoji events', () => {
  it('emits emoji events only with acceptEmojis, flags and globes with their locale', () => {
    expect(scan(['go 🇫🇷 now 🌏 😐 🎉'], { acceptEmojis: true })).toEqual([
      { type: 'text', text: 'go ', raw: 'go ' },
      { type: 'emoji', emoji: '🇫🇷', kind: 'flag', locale: 'fr-FR', raw: '🇫🇷' },
      { type: 'text', text: ' now ', raw: ' now ' },
      { type: 'emoji', emoji: '🌏', kind: 'globe', locale: 'en-AU', raw: '🌏' },
      { type: 'text', text: ' ', raw: ' ' },
      { type: 'emoji', emoji: '😐', kind: 'neutral', raw: '😐' },
      { type: 'text', text: ' ', raw: ' ' },
      { type: 'emoji', emoji: '🎉', kind: 'other', raw: '🎉' },
    ]);
    expect(scan(['go 🇫🇷 now 🌏 😐 🎉'], { acceptEmojis: false })).toEqual([{ type: 'text', text: 'go 🇫🇷 now 🌏 😐 🎉', raw: 'go 🇫🇷 now 🌏 😐 🎉' }]);
  });

  it('emits one emoji event per flag in a run of regional indicators, a lone one as text', () => {
    const events = scan(['🇫🇷🇩🇪🇯'], { acceptEmojis: true });
    expect(events.map((e) => (e.type === 'emoji' ? e.locale : e.raw))).toEqual(['fr-FR', 'de-DE', '🇯']);
  });
});

describe('openEmotionCatalog', () => {
  it('knows the given names for every voice and emoji bound to them, selectors ignored', () => {
    const catalog = openEmotionCatalog([' Happy ', 'sad'], { '😀': 'HAPPY', '☹': 'sad', '🎈': 'unknown' });
    expect(catalog.emotion(undefined, 'happy')).toEqual({ name: 'happy' });
    expect(catalog.emotion('any', 'sad')).toEqual({ name: 'sad' });
    expect(catalog.emotion('any', 'angry')).toBeUndefined();
    expect(catalog.emotionForEmoji(undefined, '😀')).toEqual({ name: 'happy' });
    expect(catalog.emotionForEmoji(undefined, '☹️')).toEqual({ name: 'sad' });
    expect(catalog.emotionForEmoji(undefined, '🎈')).toBeUndefined();
    expect(catalog.emotionForEmoji(undefined, '🎉')).toBeUndefined();
  });
});
