import { describe, expect, it } from 'vitest';
import { PlayoutTracker } from '../../../src/twilio/playout.js';
import { parseTwilioMessage } from '../../../src/twilio/protocol.js';
import { EnergyVad, levelDbfs } from '../../../src/twilio/vad.js';

/** 20 ms frames at 8 kHz: `tone` = a 200 Hz sine at `amp`, else low noise from a fixed LCG. */
function frames(count: number, amp: number, tone: boolean, seed = 1): Int16Array[] {
  let s = seed;
  const out: Int16Array[] = [];
  for (let f = 0; f < count; f++) {
    const frame = new Int16Array(160);
    for (let i = 0; i < 160; i++) {
      s = (s * 1103515245 + 12345) & 0x7fffffff;
      const noise = ((s / 0x7fffffff) * 2 - 1) * 60;
      frame[i] = Math.round((tone ? amp * Math.sin((2 * Math.PI * 200 * (f * 160 + i)) / 8000) : 0) + noise);
    }
    out.push(frame);
  }
  return out;
}

describe('EnergyVad', () => {
  it('starts after startMs of speech over the noise floor and ends after endMs of silence', () => {
    const vad = new EnergyVad({ startMs: 60, endMs: 200 });
    const events: Array<[number, string]> = [];
    const timeline = [...frames(50, 0, false), ...frames(20, 8000, true), ...frames(30, 0, false, 7)];
    timeline.forEach((frame, i) => {
      const e = vad.push(frame);
      if (e) events.push([i, e]);
    });
    // speech begins at frame 50: 3 frames (60 ms) later it starts; silence from frame 70: 10 frames (200 ms) later it ends.
    expect(events).toEqual([
      [52, 'speech-start'],
      [79, 'speech-end'],
    ]);
  });

  it('ignores a short click and adapts to a steady noise floor', () => {
    const vad = new EnergyVad({ startMs: 60 });
    for (const f of frames(50, 0, false)) expect(vad.push(f)).toBeUndefined();
    expect(vad.push(frames(1, 10000, true)[0]!)).toBeUndefined(); // 20 ms click
    for (const f of frames(10, 0, false, 3)) expect(vad.push(f)).toBeUndefined();
    expect(vad.speaking).toBe(false);
    expect(vad.noiseFloorDbfs).toBeLessThan(-45);
  });

  it('measures levels in dBFS', () => {
    expect(levelDbfs(new Int16Array(160))).toBe(-100);
    const full = new Int16Array(160).fill(32767);
    expect(levelDbfs(full)).toBeCloseTo(0, 1);
  });
});

describe('PlayoutTracker', () => {
  it('marks everything up to an echoed mark as heard and reports heard/unheard text', () => {
    const t = new PlayoutTracker();
    const a = t.add('Hello there. ', 800);
    t.add('How can I help ', 900);
    const c = t.add('you today?', 700);
    expect(t.onMark(a)?.text).toBe('Hello there. ');
    const report = t.settle();
    expect(report.heardText).toBe('Hello there.');
    expect(report.unheardText).toBe('How can I help you today?');
    expect(report.heardMs).toBe(800);
    // a mark of the cleared turn arriving late is ignored
    expect(t.onMark(c)).toBeUndefined();
    expect(t.ignoredMarks).toBe(1);
  });

  it('a later mark implies earlier segments played', () => {
    const t = new PlayoutTracker();
    t.add('one ', 100);
    const b = t.add('two', 100);
    t.onMark(b);
    expect(t.pending).toBe(false);
    expect(t.settle().heardText).toBe('one two');
  });
});

describe('parseTwilioMessage', () => {
  it('accepts the documented events and rejects malformed ones', () => {
    expect(parseTwilioMessage('{"event":"connected","protocol":"Call","version":"1.0.0"}')?.event).toBe('connected');
    expect(parseTwilioMessage('{"event":"media","streamSid":"MZ1","sequenceNumber":"2","media":{"track":"inbound","chunk":"1","timestamp":"0","payload":"//8="}}')?.event).toBe('media');
    expect(parseTwilioMessage('{"event":"media","media":{}}')).toBeUndefined();
    expect(parseTwilioMessage('{"event":"mark","mark":{}}')).toBeUndefined();
    expect(parseTwilioMessage('{"event":"bogus"}')).toBeUndefined();
    expect(parseTwilioMessage('nope')).toBeUndefined();
  });
});
