import { describe, expect, it } from 'vitest';
import { SpeakingRate, TextAttributor } from '../../../src/twilio/attribution.js';
import { FramePacer } from '../../../src/twilio/pacer.js';

describe('TextAttributor', () => {
  it('spreads text over audio at the speaking rate, cutting at word ends', () => {
    const a = new TextAttributor(50);
    a.write('Hello there, how are you?');
    // 300 ms = 6 characters: "Hello " fits exactly.
    expect(a.take(300)).toBe('Hello ');
    // 100 ms more = 2 characters: no whole word yet, the time is owed.
    expect(a.take(100)).toBe('');
    // Owed 100 + 250 ms = 7 characters: "there, " is 7.
    expect(a.take(250)).toBe('there, ');
    expect(a.take(0, true)).toBe('how are you?');
    expect(a.take(500, true)).toBe('');
    expect(a.audioMs).toBe(1150);
  });

  it('never runs ahead of the text written so far; time spoken beyond it stays owed', () => {
    const a = new TextAttributor(50);
    a.write('Hi ');
    expect(a.take(300)).toBe('Hi ');
    a.write('again and again');
    // 150 ms owed = 3 characters: not a whole word.
    expect(a.take(0)).toBe('');
    // 350 ms owed = 7 characters, cut back to the word end.
    expect(a.take(200)).toBe('again ');
    expect(a.text).toBe('Hi again and again');
  });

  it('gives the last piece everything left, so a fully played turn is fully heard', () => {
    const a = new TextAttributor(1000);
    a.write('A sentence spoken much faster than the rate guess.');
    const pieces = [a.take(20), a.take(20), a.take(20, true)];
    expect(pieces.join('')).toBe(a.text);
  });
});

describe('SpeakingRate', () => {
  it('learns from completed turns and ignores tiny or absurd samples', () => {
    const rate = new SpeakingRate(60);
    rate.observe(1000, 4);
    expect(rate.msPerChar).toBe(60);
    rate.observe(10_000, 100);
    expect(rate.msPerChar).toBe(80);
    rate.observe(1_000_000, 10);
    expect(rate.msPerChar).toBe(240);
  });
});

describe('FramePacer', () => {
  it('lets frames through at once without realtime, counting the audio sent', async () => {
    const pacer = new FramePacer({ realtime: false });
    const signal = new AbortController().signal;
    for (let i = 0; i < 100; i++) {
      await pacer.ready(signal);
      pacer.sent();
    }
    expect(pacer.sentMs).toBe(2000);
    pacer.reset();
    expect(pacer.sentMs).toBe(0);
    expect(pacer.aheadMs).toBe(0);
  });

  it('waits once the lead is used up, and the wait is aborted by the signal', async () => {
    const pacer = new FramePacer({ leadMs: 100 });
    const controller = new AbortController();
    // 1 s of audio "sent" at once: far ahead of playback.
    await pacer.ready(controller.signal);
    for (let i = 0; i < 50; i++) pacer.sent();
    expect(pacer.aheadMs).toBeGreaterThan(800);
    const waiting = pacer.ready(controller.signal);
    controller.abort();
    await expect(waiting).rejects.toMatchObject({ code: 'aborted' });
  });
});
