import { describe, expect, it } from 'vitest';
import { openEmotionCatalog, TagInterpreter, TagScanner, type EmotionCatalog, type SpokenSegment, type VoiceState } from '../../../src/tags/index.js';
import { rng } from '../client/test-utils.js';
import { pairSplits, randomSplit, run } from './scan-helpers.js';

const CATALOG = openEmotionCatalog(['happy', 'Sad'], { '😀': 'happy', '☹️': 'sad', '🎈': 'nope' });
const BASE: VoiceState = { locale: 'en-US', voicePromptId: 'v1', targetGender: undefined, emotion: undefined };

/** Scans (whole input or `parts`) and interprets from BASE. */
function speak(parts: string[], acceptEmojis = false, catalog: EmotionCatalog = CATALOG): SpokenSegment[] {
  return new TagInterpreter(BASE, catalog).apply(run(parts, { acceptEmojis }).events);
}

/** Joins consecutive segments with the same state (segments of separate apply() calls are not merged). */
function joined(segments: SpokenSegment[]): SpokenSegment[] {
  const out: SpokenSegment[] = [];
  for (const seg of segments) {
    const last = out.at(-1);
    if (last && JSON.stringify(last.state) === JSON.stringify(seg.state)) last.text += seg.text;
    else out.push({ text: seg.text, state: { ...seg.state } });
  }
  return out;
}

describe('TagInterpreter: emotion tags', () => {
  it('switches emotion on known names (case and spaces ignored), speaks unknown ones, returns on default/normal', () => {
    expect(speak(['Hi [ HAPPY ]great[sad] oh [dance] [Normal]back [sad]x[ DEFAULT ]y'])).toEqual([
      { text: 'Hi ', state: BASE },
      { text: 'great', state: { ...BASE, emotion: 'happy' } },
      { text: ' oh [dance] ', state: { ...BASE, emotion: 'sad' } },
      { text: 'back ', state: BASE },
      { text: 'x', state: { ...BASE, emotion: 'sad' } },
      { text: 'y', state: BASE },
    ]);
  });

  it('looks names up in the emotion set of the current base voice', () => {
    const lookups: [string | undefined, string][] = [];
    const catalog: EmotionCatalog = {
      emotion: (voice, name) => {
        lookups.push([voice, name]);
        return voice === 'v2' && name === 'angry' ? { name: 'angry', voicePromptId: 'v2-angry' } : undefined;
      },
      emotionForEmoji: () => undefined,
    };
    expect(speak(['[Angry]a<config voicePromptId="v2"/>[ ANGRY ]b'], false, catalog)).toEqual([
      { text: '[Angry]a', state: BASE },
      { text: 'b', state: { ...BASE, voicePromptId: 'v2', emotion: 'angry' } },
    ]);
    expect(lookups).toEqual([['v1', 'angry'], ['v2', 'angry']]);
  });

  it('keeps the base voice while an emotion is active', () => {
    const i = new TagInterpreter(BASE, CATALOG);
    i.apply(run(['[happy]']).events);
    expect(i.state).toEqual({ ...BASE, emotion: 'happy' });
  });
});

describe('TagInterpreter: config tags', () => {
  it('applies config tags to the text after them; a new voice ends the emotion, a new locale does not', () => {
    expect(speak(['[happy]a<config locale="de-DE"/>b<config voicePromptId="v9" targetGender="female"/>c'])).toEqual([
      { text: 'a', state: { ...BASE, emotion: 'happy' } },
      { text: 'b', state: { ...BASE, locale: 'de-DE', emotion: 'happy' } },
      { text: 'c', state: { locale: 'de-DE', voicePromptId: 'v9', targetGender: 'female', emotion: undefined } },
    ]);
  });

  it('keeps the emotion when a config tag repeats the current voice, and ignores </config>', () => {
    expect(speak(['[sad]a<config voicePromptId="v1"/>b</config>c'])).toEqual([{ text: 'abc', state: { ...BASE, emotion: 'sad' } }]);
  });

  it('setBase applies a new stream-config mid-session', () => {
    const i = new TagInterpreter(BASE, CATALOG);
    i.apply(run(['[happy]x']).events);
    i.setBase({ locale: 'fr-FR' });
    expect(i.state).toEqual({ ...BASE, locale: 'fr-FR', emotion: 'happy' });
    i.setBase({ voicePromptId: 'v2' });
    expect(i.state).toEqual({ ...BASE, locale: 'fr-FR', voicePromptId: 'v2', emotion: undefined });
    expect(i.apply(run(['y']).events)).toEqual([{ text: 'y', state: { ...BASE, locale: 'fr-FR', voicePromptId: 'v2' } }]);
  });

  it('returns a copy of its state', () => {
    const i = new TagInterpreter(BASE, CATALOG);
    const s = i.state;
    s.locale = 'xx';
    expect(i.state.locale).toBe('en-US');
  });
});

describe('TagInterpreter: emoji', () => {
  it('applies flags, globes, bound emoji and the neutral face when emoji are accepted', () => {
    expect(speak(['a🇪🇸b😀c😐d🎉🏴‍☠️e🌏f☹g🇦🇶h'], true)).toEqual([
      { text: 'a', state: BASE },
      { text: 'b', state: { ...BASE, locale: 'es-ES' } },
      { text: 'c', state: { ...BASE, locale: 'es-ES', emotion: 'happy' } },
      { text: 'd🎉🏴‍☠️e', state: { ...BASE, locale: 'es-ES' } },
      { text: 'f', state: { ...BASE, locale: 'en-AU' } },
      // ☹ without VS16 matches the binding written as ☹️; 🇦🇶 (no country locale) stays text
      { text: 'g🇦🇶h', state: { ...BASE, locale: 'en-AU', emotion: 'sad' } },
    ]);
  });

  it('speaks every emoji as text when emoji are not accepted', () => {
    expect(speak(['a🇪🇸b😀c😐🌍'], false)).toEqual([{ text: 'a🇪🇸b😀c😐🌍', state: BASE }]);
  });

  it('speaks an emoji bound to a name that is not an emotion', () => {
    expect(speak(['x🎈y'], true)).toEqual([{ text: 'x🎈y', state: BASE }]);
  });
});

describe('TagInterpreter: split invariance', () => {
  const text = '[happy]Hola 🇲🇽 <config voicePromptId="v2"/>amigo [SAD] 😀 fin [x] 😐 <config locale="fr-FR"/>🇯🇵 ok';

  it('gives the same segments however the input is split (every two- and three-piece split)', () => {
    for (const acceptEmojis of [false, true]) {
      const whole = JSON.stringify(speak([text], acceptEmojis));
      for (const parts of pairSplits(text)) {
        const got = joined(speak(parts, acceptEmojis));
        if (JSON.stringify(got) !== whole) expect(got).toEqual(JSON.parse(whole));
      }
    }
  });

  it('gives the same segments when each push is applied on its own (seeded random splits)', () => {
    const random = rng(7);
    const whole = speak([text], true);
    for (let round = 0; round < 200; round++) {
      const interpreter = new TagInterpreter(BASE, CATALOG);
      const scanner = new TagScanner({ acceptEmojis: true });
      const segments: SpokenSegment[] = [];
      for (const part of randomSplit(text, random, 6)) segments.push(...interpreter.apply(scanner.push(part)));
      segments.push(...interpreter.apply(scanner.flush()));
      expect(joined(segments)).toEqual(whole);
    }
  });
});
