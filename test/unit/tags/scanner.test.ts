import { describe, expect, it } from 'vitest';
import { DEFAULT_MAX_BRACKET_LENGTH, DEFAULT_MAX_TAG_LENGTH, TagScanner } from '../../../src/tags/index.js';
import { rng } from '../client/test-utils.js';
import { merge, run, scan } from './scan-helpers.js';

const text = (t: string) => ({ type: 'text', text: t, raw: t });

describe('TagScanner: config tags', () => {
  it('parses any combination of attributes in any order, with either quote, bare values and extra whitespace', () => {
    const raw = '<config locale="fr-FR" voicePromptId=\'v2\'  targetGender=male/>';
    expect(scan([`a${raw}b`])).toEqual([text('a'), { type: 'config', attributes: { locale: 'fr-FR', voicePromptId: 'v2', targetGender: 'male' }, raw }, text('b')]);
    const cases: [string, object][] = [
      ['<config targetGender="female" locale="he-IL"/>', { targetGender: 'female', locale: 'he-IL' }],
      ['<config   voicePromptId = "x y"   />', { voicePromptId: 'x y' }],
      ['<CONFIG LOCALE=\'de-DE\'>', { locale: 'de-DE' }],
      ['<config\n\tlocale="ja-JP"\n/>', { locale: 'ja-JP' }],
      ['<config locale=" es-MX ">', { locale: 'es-MX' }],
      ['<config locale="" targetGender="male">', { targetGender: 'male' }],
      ['<config locale="a" locale="b"/>', { locale: 'b' }],
      ['<config voice="v9" locale="it-IT"/>', { locale: 'it-IT' }],
      ['<config/>', {}],
      ['<config>', {}],
    ];
    for (const [tag, attributes] of cases) expect(scan([`x${tag}y`])).toEqual([text('x'), { type: 'config', attributes, raw: tag }, text('y')]);
  });

  it('strips closing tags into a text event with empty text and the tag as raw', () => {
    for (const close of ['</config>', '</CONFIG>', '</ config >', '</config\n>']) {
      expect(scan([`a${close}b`])).toEqual([text('a'), { type: 'text', text: '', raw: close }, text('b')]);
    }
  });

  it('treats every other angle bracket as plain text at once', () => {
    for (const plain of ['1 < 2', 'a <b>bold</b>', '<configure>', '<config-x a="1">', '< config locale="x">', '</configs>', 'x<<config', 'a<conf<b', '<>', 'a->b']) {
      const s = new TagScanner();
      expect(s.push(plain).map((e) => e.raw).join('') + s.pending).toBe(plain);
      expect(scan([plain])).toEqual([text(plain)]);
    }
    expect(new TagScanner().push('x < y').map((e) => e.raw)).toEqual(['x < y']);
  });

  it('holds only what may still become a config tag', () => {
    for (const held of ['<', '<c', '<CoNf', '<config', '<config ', '<config locale="fr', '<config/', '</', '</ conf', '</config ']) {
      const s = new TagScanner();
      expect(s.push(`ok ${held}`)).toEqual([text('ok ')]);
      expect(s.pending).toBe(held);
    }
  });

  it('applies text before a tag with the old config and after it with the new one: events keep order', () => {
    expect(scan(['one<config locale="a"/>two<config locale="b"/>three']).map((e) => e.type)).toEqual(['text', 'config', 'text', 'config', 'text']);
  });
});

describe('TagScanner: bracket tags', () => {
  it('gives names trimmed and lowercased, raw as written', () => {
    expect(scan(['x[ Happy ]y'])).toEqual([text('x'), { type: 'bracket', name: 'happy', raw: '[ Happy ]' }, text('y')]);
    expect(scan(['[\tSAD\u00A0]'])).toEqual([{ type: 'bracket', name: 'sad', raw: '[\tSAD\u00A0]' }]);
    expect(scan(['[very-happy_2]'])[0]).toMatchObject({ name: 'very-happy_2' });
    expect(scan(['[Überglücklich]'])[0]).toMatchObject({ name: 'überglücklich' });
    expect(scan(['[]'])).toEqual([{ type: 'bracket', name: '', raw: '[]' }]);
  });

  it('treats a [ whose content cannot be a name as text at once', () => {
    const cases: [string, string][] = [
      ['[0, 1)', ''], ['a[i+1]', ''], ['[see: below]', ''], ['[x.y]', ''], ['[<config/>]', ''], ['list [\n', ''], ['[happy\n]', ''], ['[😀]', ''],
      ['[a [b', '[b'],
    ];
    for (const [plain, held] of cases) {
      const s = new TagScanner({ acceptEmojis: true });
      const out = s.push(plain).map((e) => e.raw).join('');
      expect([plain, s.pending]).toEqual([plain, held]);
      expect(out + s.pending).toBe(plain);
      expect(scan([plain], { acceptEmojis: true }).some((e) => e.type === 'bracket')).toBe(false);
    }
    expect(scan(['[a [b]']).map((e) => e.type)).toEqual(['text', 'bracket']);
    expect(scan(['[x<config locale="fr-FR"/>]'])).toEqual([text('[x'), { type: 'config', attributes: { locale: 'fr-FR' }, raw: '<config locale="fr-FR"/>' }, text(']')]);
  });

  it('holds an unfinished name until ], and releases it once it cannot be one', () => {
    const s = new TagScanner();
    expect(s.push('Hi [hap')).toEqual([text('Hi ')]);
    expect(s.pending).toBe('[hap');
    expect(s.push('py')).toEqual([]);
    expect(s.push(']!')).toEqual([{ type: 'bracket', name: 'happy', raw: '[happy]' }, text('!')]);
    expect(s.push('[oops')).toEqual([]);
    expect(s.push(', no')).toEqual([text('[oops, no')]);
  });
});

describe('TagScanner: bounded buffers and flush', () => {
  it('releases a <config opening as text once it is maxTagLength long', () => {
    const s = new TagScanner({ maxTagLength: 24 });
    expect(s.push('<config locale="')).toEqual([]);
    expect(s.push('xxxxxxx')).toEqual([]);
    expect(s.pending).toHaveLength(23);
    expect(s.push('x').map((e) => e.raw).join('')).toBe('<config locale="xxxxxxxx');
    expect(s.pending).toBe('');
    // a complete tag longer than the limit is text too, however it arrives
    expect(scan(['<config locale="xxxxxxxx"/>'], { maxTagLength: 24 })).toEqual([text('<config locale="xxxxxxxx"/>')]);
    expect(scan(['<config locale="xxxxx"/>'], { maxTagLength: 24 })[0]?.type).toBe('config');
  });

  it('releases a [ opening as text once it is maxBracketLength long (default 64, capped by maxTagLength)', () => {
    const s = new TagScanner();
    expect(s.push(`[${'a'.repeat(DEFAULT_MAX_BRACKET_LENGTH - 2)}`)).toEqual([]);
    expect(s.push('a').map((e) => e.raw).join('')).toBe(`[${'a'.repeat(DEFAULT_MAX_BRACKET_LENGTH - 1)}`);
    expect(scan(['[abcdef]'], { maxBracketLength: 7 })).toEqual([text('[abcdef]')]);
    expect(scan(['[abcde]'], { maxBracketLength: 7 })[0]?.type).toBe('bracket');
    expect(scan(['[abcdef]'], { maxTagLength: 5, maxBracketLength: 100 })).toEqual([text('[abcdef]')]);
  });

  it('keeps memory bounded while a tag never closes, however much text arrives', () => {
    const s = new TagScanner();
    s.push('<config locale="');
    let longest = 0;
    for (let i = 0; i < 10_000; i++) {
      s.push('y');
      longest = Math.max(longest, s.pending.length);
    }
    expect(longest).toBeLessThan(DEFAULT_MAX_TAG_LENGTH);
  });

  it('bounds a held grapheme cluster (an endless ZWJ chain) by maxTagLength', () => {
    const s = new TagScanner({ maxTagLength: 16 });
    let longest = 0;
    for (let i = 0; i < 100; i++) {
      s.push('👍\u200D');
      longest = Math.max(longest, s.pending.length);
    }
    expect(longest).toBeLessThanOrEqual(16);
  });

  it('speaks an unclosed tag at flush as written', () => {
    for (const open of ['<config locale="fr', '[happ', '</conf', '<']) {
      const r = run(['a ', open]);
      expect(merge(r.events)).toEqual([text(`a ${open}`)]);
      expect(r.pendingAfterFlush).toBe('');
    }
  });

  it('flush after flush and reset drop nothing twice', () => {
    const s = new TagScanner();
    s.push('abc [hap');
    expect(s.pending).toBe('[hap');
    s.reset();
    expect(s.pending).toBe('');
    expect(s.flush()).toEqual([]);
    expect(s.push('ok')).toEqual([text('ok')]);
    expect(s.flush()).toEqual([]);
  });
});

describe('TagScanner: grapheme hold-back', () => {
  it('adds no latency to ASCII text ending in a letter, a space or punctuation', () => {
    const s = new TagScanner();
    for (const piece of ['Hello', ',', ' world', '!', ' How', "'s", ' it', ' going', '?\n', '(yes)', ' "quoted"', ' a-b', ' 50%']) {
      expect(s.push(piece)).toEqual([text(piece)]);
      expect(s.pending).toBe('');
    }
  });

  it('never holds anything back from ASCII tokens without digits, #, *, < or [ (seeded random tokens)', () => {
    const random = rng(11);
    const alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ .,;:!?'\"()-_/\\\n\t@$%^&=+{}|~`>]";
    const s = new TagScanner({ acceptEmojis: true });
    for (let i = 0; i < 2000; i++) {
      let token = '';
      for (let n = 1 + Math.floor(random() * 4); n > 0; n--) token += alphabet[Math.floor(random() * alphabet.length)];
      expect(s.push(token).map((e) => e.raw).join('')).toBe(token);
      expect(s.pending).toBe('');
    }
  });

  it('after drain(), a late continuation of the released cluster still reaches the output in order', () => {
    const s = new TagScanner({ acceptEmojis: true });
    const raws = [...s.push('ok 👍'), ...s.drain(), ...s.push('🏽 fine'), ...s.flush()].map((e) => e.raw);
    expect(raws.join('')).toBe('ok 👍🏽 fine');
    expect(raws).toContain('👍');
  });

  it('holds a trailing cluster that may continue, and drain() releases it but not an open tag', () => {
    const s = new TagScanner();
    expect(s.push('Score 4')).toEqual([text('Score ')]);
    expect(s.pending).toBe('4');
    expect(s.drain()).toEqual([text('4')]);
    expect(s.push('ok 👍')).toEqual([text('ok ')]);
    expect(s.drain()).toEqual([text('👍')]);
    expect(s.push('[hap')).toEqual([]);
    expect(s.drain()).toEqual([]);
    expect(s.pending).toBe('[hap');
  });
});
