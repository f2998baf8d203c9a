import { describe, expect, it } from 'vitest';
import { FrameCoalescer, type SpeakFrame } from '../../../src/pipeline/coalescer.js';
import { openEmotionCatalog } from '../../../src/tags/index.js';
import { rng } from '../../unit/client/test-utils.js';

const texts = (frames: SpeakFrame[]): string[] => frames.map((f) => f.text);

describe('FrameCoalescer', () => {
  it('sends the first text at once, holding back only a trailing grapheme that may continue', () => {
    const c = new FrameCoalescer();
    expect(texts(c.push('Hi 👋', 0))).toEqual(['Hi ']);
    expect(c.pendingText).toBe('👋');
    expect(texts(c.push('🏽 there', 1))).toEqual([]);
    expect(texts(c.finish(2))).toEqual(['👋🏽 there']);
  });

  it('sends later text at a clause boundary at once, and at a word boundary only when the window ends', () => {
    const c = new FrameCoalescer({ windowMs: 30 });
    c.push('Hi. ', 0);
    expect(texts(c.push('How are', 5))).toEqual([]);
    expect(c.deadline).toBe(35);
    expect(texts(c.push(' you? I am', 10))).toEqual(['How are you? ']);
    expect(texts(c.due(40))).toEqual(['I ']);
    expect(texts(c.finish(50))).toEqual(['am']);
  });

  it('releases a run without any boundary after maxHoldMs', () => {
    const c = new FrameCoalescer({ windowMs: 10, maxHoldMs: 40 });
    c.push('A ', 0);
    c.push('Supercalifragilistic', 1);
    expect(texts(c.due(11))).toEqual([]);
    expect(c.deadline).toBe(21);
    expect(texts(c.due(21))).toEqual([]);
    const held = texts(c.due(41));
    expect(held).toHaveLength(1);
    expect(c.deadline).toBeUndefined();
    expect([...held, ...texts(c.finish(50))].join('')).toBe('Supercalifragilistic');
  });

  it('keeps a config tag whole even when its attribute value has spaces, and reports the new locale', () => {
    const c = new FrameCoalescer({ windowMs: 10, initialState: { locale: 'en-US', voicePromptId: 'v', targetGender: undefined, emotion: undefined } });
    c.push('Start ', 0);
    c.push('now <config locale="fr-FR" voicePromptId="a b"/>Bon', 1);
    c.push('jour', 2);
    const frames = [...c.due(20), ...c.finish(30)];
    expect(frames.map((f) => f.text).join('')).toBe('now <config locale="fr-FR" voicePromptId="a b"/>Bonjour');
    for (const f of frames) expect(f.text.includes('<config') === f.text.includes('/>')).toBe(true);
    const segments = frames.flatMap((f) => f.segments);
    expect(segments.at(-1)).toEqual({ text: 'Bonjour', state: { locale: 'fr-FR', voicePromptId: 'a b', targetGender: undefined, emotion: undefined } });
  });

  it('reports emotions from the catalog and speaks unknown bracketed names literally', () => {
    const c = new FrameCoalescer({ emotions: openEmotionCatalog(['happy']) });
    const frames = [...c.push('[happy] Yay [weird] ok', 0), ...c.finish(1)];
    const segments = frames.flatMap((f) => f.segments);
    expect(segments.map((s) => s.text).join('')).toBe(' Yay [weird] ok');
    expect(segments.every((s) => s.state.emotion === 'happy')).toBe(true);
  });

  it('treats every bracketed name as an emotion by default', () => {
    const c = new FrameCoalescer();
    const segments = [...c.push('[Calm ] fine', 0), ...c.finish(1)].flatMap((f) => f.segments);
    expect(segments[0]?.state.emotion).toBe('calm');
  });

  it('reproduces the input exactly and never splits a tag or grapheme, whatever the token boundaries and timing', () => {
    const input = 'Hi 👋🏽! <config locale="de-DE"/>Guten Tag, [happy] wie geht’s? 👩‍👩‍👧 Gut 🇩🇪. </config>[default] e\u0301te, 🏳️‍🌈 done.';
    const graphemeStarts = new Set([...new Intl.Segmenter('en', { granularity: 'grapheme' }).segment(input)].map((g) => g.index));
    graphemeStarts.add(input.length);
    const tagSpans = [...input.matchAll(/<[^>]*>|\[[^\]]*]/g)].map((m) => [m.index, m.index + m[0].length] as const);
    for (let seed = 1; seed <= 200; seed++) {
      const random = rng(seed);
      const c = new FrameCoalescer({ windowMs: 5, maxHoldMs: 15, acceptEmojis: seed % 2 === 0 });
      const frames: SpeakFrame[] = [];
      let t = 0;
      for (let i = 0; i < input.length; ) {
        const n = 1 + Math.floor(random() * 6);
        frames.push(...c.push(input.slice(i, i + n), t));
        i += n;
        t += random() * 8;
        if (c.deadline !== undefined && c.deadline <= t) frames.push(...c.due(t));
      }
      frames.push(...c.finish(t));
      expect(frames.map((f) => f.text).join('')).toBe(input);
      expect(frames.map((f) => f.index)).toEqual(frames.map((_, i) => i));
      let offset = 0;
      for (const f of frames) {
        offset += f.text.length;
        expect(graphemeStarts.has(offset), `seed ${seed}: cut at ${offset} ${JSON.stringify(input.slice(offset - 3, offset + 3))}`).toBe(true);
        for (const [start, end] of tagSpans) expect(offset > start && offset < end).toBe(false);
      }
    }
  });
});
