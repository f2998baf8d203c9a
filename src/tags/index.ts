/**
 * The inline tag grammar of `stream-text` (config tags, emotion tags, emoji): an incremental scanner that
 * never splits a tag or a grapheme cluster across messages, and the interpreter that applies the tags'
 * meaning (which locale, voice, gender and emotion each piece of text is spoken with).
 */
export { TagScanner, DEFAULT_MAX_TAG_LENGTH, DEFAULT_MAX_BRACKET_LENGTH, type ScanEvent, type TagScannerOptions, type ConfigTagAttributes } from './scanner.js';
export { TagInterpreter, openEmotionCatalog, type VoiceState, type EmotionCatalog, type CatalogEmotion, type SpokenSegment } from './interpreter.js';
export { classifyEmoji, emojiKey, FLAG_LOCALES, SUBDIVISION_FLAG_LOCALES, GLOBE_LOCALES, NEUTRAL_FACE, type EmojiKind } from './emoji.js';
export { normalizeEmotionName, parseConfigAttributes } from './syntax.js';
export { continuableTail, mayContinue } from './graphemes.js';
