/** The inline tag grammar (config tags, emotion tags, emoji): an incremental scanner and its interpreter. */
export { TagScanner, type ScanEvent, type TagScannerOptions, type ConfigTagAttributes } from './scanner.js';
export { TagInterpreter, openEmotionCatalog, type VoiceState, type EmotionCatalog, type CatalogEmotion, type SpokenSegment } from './interpreter.js';
export { classifyEmoji, FLAG_LOCALES, GLOBE_LOCALES, NEUTRAL_FACE, type EmojiKind } from './emoji.js';
