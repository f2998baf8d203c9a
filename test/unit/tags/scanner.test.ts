import { describe, expect, it } from 'vitest';
import { openEmotionCatalog, TagInterpreter, TagScanner, type ScanEvent, type SpokenSegment, type VoiceState } from '../../../src/tags/index.js';

/** Feeds `parts` and flushes; merges adjacent text so results compare across split points. */
function scan(parts: string[], acceptEmojis = false): ScanEvent[] {
  const s = new TagScanner({ acceptEmojis });
  const events = [...parts.flatMap((p) => s.push(p)), ...s.flush()];
  const merged: ScanEvent[] = [];
  for (const e of events) {
    const last = merged.at(-1);
    if (e.type === 'text' && last?.type === 'text' && e.text !== '' && last.text !== '') merged[merged.length - 1] = { type: 'text', text: last.text + e.text, raw: last.raw + e.raw };
    else merged.push(e);
  }
  return merged;
}
/** Every way of cutting `text` (by UTF-16 code unit) into two or three parts. */
function* splits(text: string): Generator<string[]> {
  for (let i = 0; i <= text.length; i++) {
    yield [text.slice(0, i), text.slice(i)];
    for (let j = i; j <= text.length; j += 3) yield [text.slice(0, i), text.slice(i, j), text.slice(j)];
  }
}
const CATALOG = openEmotionCatalog(['happy', 'sad'], { '😀': 'happy', '😢': 'sad' });
const BASE: VoiceState = { locale: 'en-US', voicePromptId: 'v1', targetGender: undefined, emotion: undefined };
function speak(parts: string[], acceptEmojis = false): SpokenSegment[] {
  return new TagInterpreter(BASE, CATALOG).apply(scan(parts, acceptEmojis));
}

describe('TagScanner', () => {
  it('parses config tags with any quotes, order and spacing, and strips </config>', () => {
    expect(scan(['a<config locale="fr-FR" voicePromptId=\'v2\'  targetGender=male/>b</config>c'])).toEqual([
      { type: 'text', text: 'a', raw: 'a' },
      { type: 'config', attributes: { locale: 'fr-FR', voicePromptId: 'v2', targetGender: 'male' }, raw: '<config locale="fr-FR" voicePromptId=\'v2\'  targetGender=male/>' },
      { type: 'text', text: 'b', raw: 'b' },
      { type: 'text', text: '', raw: '</config>' },
      { type: 'text', text: 'c', raw: 'c' },
    ]);
    expect(scan(['< CONFIG locale="he-IL" >x'])[0]).toMatchObject({ type: 'config', attributes: { locale: 'he-IL' } });
  });

  it('treats other angle brackets as text', () => {
    expect(scan(['1 < 2 and <b>bold</b> <configure>'])).toEqual([{ type: 'text', text: '1 < 2 and <b>bold</b> <configure>', raw: '1 < 2 and <b>bold</b> <configure>' }]);
  });

  it('gives bracket names trimmed and lowercased', () => {
    expect(scan(['x[ Happy ]y'])[1]).toEqual({ type: 'bracket', name: 'happy', raw: '[ Happy ]' });
    expect(scan(['[a [b]']).map((e) => e.type)).toEqual(['text', 'bracket']);
  });

  it('holds a split tag until it closes, at every split point', () => {
    const text = 'Hi <config locale="es-ES"/>hola [Sad] adiós</config>!';
    const whole = scan([text]);
    for (const parts of splits(text)) expect(scan(parts)).toEqual(whole);
  });

  it('never splits a grapheme cluster, at every split point', () => {
    const text = 'ok 👨‍👩‍👧‍👦 and 👍🏽 and 🇫🇷 and 1️⃣ and é end';
    for (const parts of splits(text)) {
      const s = new TagScanner();
      const emitted: string[] = [];
      for (const p of parts) for (const e of s.push(p)) emitted.push(e.raw);
      for (const e of s.flush()) emitted.push(e.raw);
      expect(emitted.join('')).toBe(text);
      // every emitted piece is made of whole clusters of the full text
      let at = 0;
      const boundaries = new Set([0, ...[...new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(text)].map((g) => g.index + g.segment.length)]);
      for (const piece of emitted) {
        at += piece.length;
        expect(boundaries.has(at)).toBe(true);
      }
    }
  });

  it('keeps raw output identical to the consumed input (random splits, seeded)', () => {
    const text = 'A [happy] day <config locale="it-IT"/> ciao 🇮🇹 [unknown] 😐 <b> [x </config> fine 😀.';
    let seed = 42;
    const rnd = (n: number): number => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) % n);
    for (let round = 0; round < 200; round++) {
      const parts: string[] = [];
      let i = 0;
      while (i < text.length) {
        const n = 1 + rnd(6);
        parts.push(text.slice(i, i + n));
        i += n;
      }
      for (const emoji of [false, true]) {
        const s = new TagScanner({ acceptEmojis: emoji });
        const raw = [...parts.flatMap((p) => s.push(p)), ...s.flush()].map((e) => e.raw).join('');
        expect(raw).toBe(text);
      }
    }
  });

  it('does not hold plain text that ends settled, and drain() releases a held grapheme', () => {
    const s = new TagScanner();
    expect(s.push('Hello, ').map((e) => e.raw).join('')).toBe('Hello, ');
    expect(s.push('world').map((e) => e.raw).join('')).toBe('worl');
    expect(s.pending).toBe('d');
    expect(s.drain().map((e) => e.raw).join('')).toBe('d');
    expect(s.push('[hap').length).toBe(0);
    expect(s.drain()).toEqual([]); // an open tag is not released by drain
    expect(s.pending).toBe('[hap');
    s.reset();
    expect(s.pending).toBe('');
  });

  it('bounds the buffer: an opening that never closes becomes text', () => {
    const s = new TagScanner({ maxTagLength: 24 });
    expect(s.push('<config locale="').length).toBe(0);
    const events = s.push('xxxxxxxxxxxxxxxxxxxxxxxx ');
    expect(events.map((e) => e.raw).join('')).toBe('<config locale="xxxxxxxxxxxxxxxxxxxxxxxx ');
    expect(scan(['[never closed'])).toEqual([{ type: 'text', text: '[never closed', raw: '[never closed' }]);
  });

  it('classifies emoji only with acceptEmojis', () => {
    expect(scan(['go 🇫🇷 now'], true)[1]).toEqual({ type: 'emoji', emoji: '🇫🇷', kind: 'flag', locale: 'fr-FR', raw: '🇫🇷' });
    expect(scan(['🌏'], true)[0]).toMatchObject({ kind: 'globe', locale: 'en-AU' });
    expect(scan(['😐'], true)[0]).toMatchObject({ kind: 'neutral' });
    expect(scan(['🎉'], true)[0]).toMatchObject({ kind: 'other' });
    expect(scan(['go 🇫🇷 now'], false)).toEqual([{ type: 'text', text: 'go 🇫🇷 now', raw: 'go 🇫🇷 now' }]);
  });
});

describe('TagInterpreter', () => {
  it('switches emotion on known names (case and spaces ignored) and speaks unknown ones', () => {
    expect(speak(['Hi [ HAPPY ]great[sad] oh [dance] [normal]back'])).toEqual([
      { text: 'Hi ', state: BASE },
      { text: 'great', state: { ...BASE, emotion: 'happy' } },
      { text: ' oh [dance] ', state: { ...BASE, emotion: 'sad' } },
      { text: 'back', state: BASE },
    ]);
  });

  it('applies config tags to the text after them; a new voice ends the emotion', () => {
    const segments = speak(['[happy]a<config locale="de-DE"/>b<config voicePromptId="v9" targetGender="female"/>c']);
    expect(segments).toEqual([
      { text: 'a', state: { ...BASE, emotion: 'happy' } },
      { text: 'b', state: { ...BASE, locale: 'de-DE', emotion: 'happy' } },
      { text: 'c', state: { locale: 'de-DE', voicePromptId: 'v9', targetGender: 'female', emotion: undefined } },
    ]);
  });

  it('applies emoji semantics only when accepted', () => {
    expect(speak(['a🇪🇸b😀c😐d🎉🏴‍☠️'], true)).toEqual([
      { text: 'a', state: BASE },
      { text: 'b', state: { ...BASE, locale: 'es-ES' } },
      { text: 'c', state: { ...BASE, locale: 'es-ES', emotion: 'happy' } },
      { text: 'd🎉🏴‍☠️', state: { ...BASE, locale: 'es-ES' } },
    ]);
    expect(speak(['a🇪🇸b😀'], false)).toEqual([{ text: 'a🇪🇸b😀', state: BASE }]);
  });

  it('gives the same segments however the input is split', () => {
    const text = '[happy]Hola 🇲🇽 <config voicePromptId="v2"/>amigo [SAD] 😀 fin';
    const whole = speak([text], true);
    for (const parts of splits(text)) {
      const merged: SpokenSegment[] = [];
      for (const seg of speak(parts, true)) {
        const last = merged.at(-1);
        if (last && JSON.stringify(last.state) === JSON.stringify(seg.state)) last.text += seg.text;
        else merged.push({ ...seg });
      }
      expect(merged).toEqual(whole);
    }
  });
});
