import { validator as srtValidator } from 'srt-validator';
import { WebVTTParser } from 'webvtt-parser';
import { describe, expect, it } from 'vitest';
import type { DubbingSegment } from '../../../src/protocol/dubbing.js';
import { renderProduct, timecode } from '../../../src/server/dubbing/products.js';

const seg = (start: number, end: number, target: string | undefined, extra: Partial<DubbingSegment> = {}): DubbingSegment => ({
  timestampStart: start,
  timestampEnd: end,
  characterId: 'c1',
  characterName: 'Ann',
  sourceDialogue: 'src',
  ...(target === undefined ? {} : { targetDialogue: target }),
  ...extra,
});
const input = (segments: DubbingSegment[]) => ({ segments, targetLocale: 'fr-FR', sourceLocale: 'en-US' });

describe('dubbing text products', () => {
  it('formats timecodes', () => {
    expect(timecode(0, ',')).toBe('00:00:00,000');
    expect(timecode(3_723_004, '.')).toBe('01:02:03.004');
  });

  it('writes SRT in time order, skipping segments without target dialogue and blank lines inside cues', () => {
    const srt = renderProduct('SRT', input([seg(5000, 6000, 'Deux'), seg(1000, 2000, 'Un\n\nligne'), seg(3000, 4000, undefined), seg(3000, 4000, '   ')]))!;
    expect(srt).toBe('1\n00:00:01,000 --> 00:00:02,000\nUn\nligne\n\n2\n00:00:05,000 --> 00:00:06,000\nDeux\n');
    expect(srtValidator(srt)).toEqual([]);
  });

  it('writes WebVTT that the W3C parser accepts, escaping markup and arrows', () => {
    const vtt = renderProduct('WEBVTT', input([seg(0, 1500, 'a < b & c --> d', { segmentId: 'x --> y', characterName: 'Jo <3' }), seg(1500, 2000, 'ok')]))!;
    const parsed = new WebVTTParser().parse(vtt);
    expect(parsed.errors).toEqual([]);
    expect(parsed.cues.map((c) => [c.id, c.startTime, c.endTime])).toEqual([
      ['x -- y', 0, 1.5],
      ['2', 1.5, 2],
    ]);
    expect(parsed.cues[0]?.text).toBe('<v Jo &lt;3>a &lt; b &amp; c --&gt; d');
  });

  it('writes SDH with speaker labels, CSV scripts with quoting, TTML and audio hints', () => {
    const segments = [seg(0, 1000, 'Bonjour', { characterName: 'Zoé' }), seg(1000, 2000, undefined, { sourceDialogue: 'Hi, "you"' })];
    expect(renderProduct('SDH', input(segments))).toContain('[Zoé] Bonjour');
    const csv = renderProduct('AS_RECORDED_SCRIPT', input(segments))!;
    expect(csv.split('\r\n')[2]).toBe('2,00:00:01.000,00:00:02.000,c1,Ann,"Hi, ""you""",');
    expect(renderProduct('ITT_SUBTITLES', input(segments))).toContain('<tt xmlns="http://www.w3.org/ns/ttml" xml:lang="fr-FR">');
    expect(JSON.parse(renderProduct('AUDIO_HINTS', input(segments))!).hints.map((h: { dubbed: boolean }) => h.dubbed)).toEqual([true, false]);
    expect(renderProduct('SOURCE_VIDEO', input(segments))).toBeUndefined();
  });
});
