import { describe, expect, it } from 'vitest';
import { lastClauseCut, lastWordCut, endsClause } from '../../../src/pipeline/boundaries.js';
import { deltaText, tokenIterator } from '../../../src/pipeline/token-source.js';

describe('deltaText', () => {
  it('reads OpenAI chat completion chunks (first choice only, null and role-only chunks skipped)', () => {
    expect(deltaText({ choices: [{ index: 0, delta: { content: 'Hel' } }] })).toBe('Hel');
    expect(deltaText({ choices: [{ index: 1, delta: { content: 'other' } }, { index: 0, delta: { content: 'mine' } }] })).toBe('mine');
    expect(deltaText({ choices: [{ index: 0, delta: { content: null } }] })).toBeUndefined();
    expect(deltaText({ choices: [{ index: 0, delta: {} }] })).toBeUndefined();
    expect(deltaText({ choices: [] })).toBeUndefined();
  });

  it('reads OpenAI Responses text deltas and ignores every other event type', () => {
    expect(deltaText({ type: 'response.output_text.delta', delta: 'lo' })).toBe('lo');
    expect(deltaText({ type: 'response.created' })).toBeUndefined();
    expect(deltaText({ type: 'response.function_call_arguments.delta', delta: '{"a"' })).toBeUndefined();
  });

  it('passes strings through', () => {
    expect(deltaText('x')).toBe('x');
  });
});

describe('tokenIterator', () => {
  it('iterates a string as one item, and sync and async iterables item by item', async () => {
    expect(tokenIterator('whole').next()).toEqual({ value: 'whole', done: false });
    expect(await tokenIterator(['a', 'b']).next()).toEqual({ value: 'a', done: false });
    async function* gen(): AsyncGenerator<string> {
      yield 'z';
    }
    expect(await tokenIterator(gen()).next()).toEqual({ value: 'z', done: false });
  });
});

describe('frame boundaries', () => {
  it('cuts after clause punctuation followed by whitespace, or after a line break', () => {
    expect(lastClauseCut('Hello there. How are')).toBe(13);
    expect(lastClauseCut('One, two; three')).toBe(10);
    expect(lastClauseCut('line\nnext')).toBe(5);
    expect(lastClauseCut('He said "stop." Then')).toBe(16);
    expect(lastClauseCut('Pi is 3.14 and')).toBe(0);
    expect(lastClauseCut('No boundary yet')).toBe(0);
  });

  it('cuts after the last whitespace run', () => {
    expect(lastWordCut('Hello wor')).toBe(6);
    expect(lastWordCut('Hello  ')).toBe(7);
    expect(lastWordCut('Hello')).toBe(0);
  });

  it('never cuts in front of a combining mark, ZWJ, variation selector or skin tone', () => {
    expect(lastWordCut('a \u0301b')).toBe(0);
    expect(lastWordCut('x \u200dy')).toBe(0);
    expect(lastWordCut('x \ufe0fy')).toBe(0);
    expect(lastWordCut('x \u{1f3fd}')).toBe(0);
  });

  it('respects a filter (used to keep cuts out of tags)', () => {
    expect(lastWordCut('a b c', (at) => at !== 4)).toBe(2);
  });

  it('knows when text ends a clause', () => {
    expect(endsClause('Done.')).toBe(true);
    expect(endsClause('Really?")')).toBe(true);
    expect(endsClause('Not yet')).toBe(false);
  });
});
