import { describe, expect, it } from 'vitest';
import { CueDeduper } from '../../../src/hls/cue-dedupe.js';

const accepted = (cues: Array<[number, number, string]>): string[] => {
  const d = new CueDeduper();
  return cues.filter(([start, end, text]) => d.accept({ start, end, text })).map(([s, e, t]) => `${s}-${e} ${t}`);
};

describe('CueDeduper', () => {
  it('drops a cue repeated whole in the next segment', () => {
    expect(accepted([[1, 2.2, 'a'], [2, 3, 'b'], [1, 2.2, 'a'], [3, 4, 'c']])).toEqual(['1-2.2 a', '2-3 b', '3-4 c']);
  });

  it('drops the second part of a cue split at a segment boundary, and later repeats of either part', () => {
    expect(accepted([[1, 2, 'split'], [2, 3.5, 'split'], [2, 3.5, 'split'], [3.2, 4, 'split']])).toEqual(['1-2 split']);
  });

  it('keeps the same text again once the earlier cue is over, and different text at the same time', () => {
    expect(accepted([[1, 2, 'Yes.'], [5, 6, 'Yes.'], [5, 6, 'No.']])).toEqual(['1-2 Yes.', '5-6 Yes.', '5-6 No.']);
  });
});
