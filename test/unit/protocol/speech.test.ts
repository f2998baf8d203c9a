import { describe, expect, it } from 'vitest';
import { defaultSampleRate, normalizeFormat, parseClientAction, parseServerMessage, SPEECH_ERRORS } from '../../../src/protocol/speech.js';

describe('speech protocol: client actions', () => {
  it('reports non-JSON and non-object frames with the spec text', () => {
    expect(parseClientAction('not json')).toEqual({ ok: false, error: 'Invalid message format' });
    expect(parseClientAction('[1,2]')).toEqual({ ok: false, error: SPEECH_ERRORS.invalidFormat });
  });
  it('accepts config under data or config, in text or binary frames, keeping unknown keys', () => {
    const a = parseClientAction(Buffer.from(JSON.stringify({ action: 'stream-config', data: { model: 'm', extra: 1 } })));
    const b = parseClientAction(JSON.stringify({ action: 'stream-config', config: { model: 'm', extra: 1 } }));
    expect(a).toEqual(b);
    expect(a).toEqual({ ok: true, message: { action: 'stream-config', config: { model: 'm', extra: 1 } } });
  });
  it('reads text and ctx top-level or inside data', () => {
    expect(parseClientAction('{"action":"stream-text","text":"hi","ctx":"c"}')).toEqual({ ok: true, message: { action: 'stream-text', text: 'hi', ctx: 'c' } });
    expect(parseClientAction('{"action":"stream-text","data":{"text":"hi"}}')).toEqual({ ok: true, message: { action: 'stream-text', text: 'hi' } });
    expect(parseClientAction('{"action":"stream-text"}')).toEqual({ ok: false, error: SPEECH_ERRORS.textRequired });
  });
  it('rejects unknown actions without throwing', () => {
    expect(parseClientAction('{"action":"dance"}')).toEqual({ ok: false, error: 'unknown action: dance' });
  });
  it('normalizes formats and default sample rates', () => {
    expect(normalizeFormat('flac')).toBe('wav');
    expect(normalizeFormat('mulaw')).toBe('mulaw');
    expect(defaultSampleRate('mulaw')).toBe(8000);
    expect(defaultSampleRate('mp3')).toBe(48000);
  });
});

describe('speech protocol: server messages', () => {
  it('classifies every message kind', () => {
    expect(parseServerMessage('{"action":"status","message":"connected","connectionId":"x"}').kind).toBe('status');
    expect(parseServerMessage('{"action":"pong"}').kind).toBe('pong');
    expect(parseServerMessage('{"action":"error","message":"m","time":1}').kind).toBe('error');
    expect(parseServerMessage('{"generationId":"g","error":"boom"}').kind).toBe('generation-error');
    const chunk = parseServerMessage('{"generationId":"g","index":0,"data":"AA==","isFinished":false}');
    expect(chunk).toMatchObject({ kind: 'chunk', message: { index: 0, isFinished: false } });
    expect(parseServerMessage('{"generationId":"g","index":-1,"isFinished":false}').kind).toBe('invalid');
    expect(parseServerMessage('nope').kind).toBe('invalid');
  });
});
