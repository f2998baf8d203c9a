import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../../src/server/app.js';
import { BuiltinSynthesizer } from '../../../src/server/speech/synth/builtin.js';
import type { Synthesizer } from '../../../src/server/speech/synth/synthesizer.js';
import { startTestServer } from '../../helpers/server.js';
import { audioBytes, brief, byGeneration, collectTurn, connect, MODEL, type Msg, type RawClient } from './harness.js';

const builtin = new BuiltinSynthesizer();
/** The built-in engine, except that text containing FAIL makes the worker fail (worker-level errors). */
const failingSynth: Synthesizer = {
  name: 'failing',
  async *synthesize(request) {
    if (request.text.includes('FAIL')) throw new Error('synthesis engine rejected the segment');
    yield* builtin.synthesize(request);
  },
};

/** Checks the chunk grammar of one turn and returns its generations. */
function checkTurn(chunks: Msg[]): Map<string, Msg[]> {
  const gens = byGeneration(chunks);
  const ids = [...gens.keys()];
  // generations do not interleave
  const order = chunks.map((c) => c.generationId);
  expect(order).toEqual(ids.flatMap((id) => (gens.get(id) as Msg[]).map(() => id)));
  for (const [id, list] of gens) {
    if (list.some((m) => m.error)) continue;
    expect(list.map((m) => m.index), `indexes of ${id}`).toEqual(list.map((_, i) => i));
    expect(list.at(-1)?.isFinished).toBe(true);
    expect(list.slice(0, -1).every((m) => m.isFinished === false)).toBe(true);
  }
  const finals = chunks.filter((c) => c.isFinal);
  expect(finals).toHaveLength(1);
  expect(chunks.at(-1)?.isFinal).toBe(true);
  return gens;
}

describe('speech socket: turns and generations', () => {
  let server: RunningServer;
  let logLines: string[];
  const clients: RawClient[] = [];
  const client = async (config: Record<string, unknown> = {}): Promise<RawClient> => {
    const c = await connect(server);
    clients.push(c);
    c.send({ action: 'stream-config', config: { model: MODEL, format: 's16le', sampleRate: 16000, realtime: false, ...config } });
    return c;
  };
  beforeAll(async () => {
    logLines = [];
    const sink = new Writable({
      write(chunk, _enc, done) {
        logLines.push(chunk.toString());
        done();
      },
    });
    server = await startTestServer({ synthesizer: failingSynth, logger: pino({ level: 'debug' }, sink) });
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await server.close();
  });

  it('splits a turn into several generations; isFinal only on the last chunk after end-stream', async () => {
    const c = await client();
    const from = c.messages.length;
    for (const piece of ['First sentence here. ', 'Second one', ' follows now! ', 'And a tail']) c.send({ action: 'stream-text', text: piece });
    c.send({ action: 'end-stream' });
    const chunks = await collectTurn(c, from);
    const gens = checkTurn(chunks);
    expect(gens.size).toBeGreaterThanOrEqual(3);
    expect(new Set(gens.keys()).size).toBe(gens.size);
    for (const list of gens.values()) expect(audioBytes(list).length).toBeGreaterThan(0);
  });

  it('without end-stream, text is spoken after firstAudioTimeout but never marked isFinal', async () => {
    const c = await client({ firstAudioTimeout: 30 });
    const from = c.messages.length;
    c.send({ action: 'stream-text', text: 'no sentence end here' });
    const closing = await c.next((m) => m.isFinished === true, from);
    await c.roundTrip();
    expect(c.messages.slice(from).some((m) => m.isFinal)).toBe(false);
    expect(audioBytes(c.messages.slice(from).filter((m) => m.generationId === closing.generationId)).length).toBeGreaterThan(0);
  });

  it('holds text while firstAudioTimeout has not passed and no sentence ended', async () => {
    const c = await client({ firstAudioTimeout: 60_000 });
    const from = c.messages.length;
    c.send({ action: 'stream-text', text: 'waiting for more' });
    await c.roundTrip();
    expect(c.messages.slice(from).filter((m) => m.generationId)).toEqual([]);
    c.send({ action: 'end-stream' });
    checkTurn(await collectTurn(c, from));
  });

  it('end-stream with nothing left closes the turn with an empty final generation', async () => {
    const c = await client({ firstAudioTimeout: 10 });
    const from = c.messages.length;
    c.send({ action: 'stream-text', text: 'Done already. ' });
    await c.next((m) => m.isFinished === true, from);
    c.send({ action: 'end-stream' });
    const final = await c.next((m) => m.isFinal === true, from);
    expect(final).toEqual({ generationId: expect.any(String), index: 0, isFinished: true, isFinal: true });
  });

  it('runs several turns on one session, keeping the config', async () => {
    const c = await client();
    for (let turn = 0; turn < 3; turn++) {
      const from = c.messages.length;
      c.send({ action: 'stream-text', text: `Turn number ${turn}. ` });
      c.send({ action: 'end-stream' });
      const chunks = await collectTurn(c, from);
      checkTurn(chunks);
      // 16 kHz s16le from the first config: 32 bytes per ms
      expect(audioBytes(chunks).length % 2).toBe(0);
    }
  });

  it('cancel aborts the generation in flight: isCancelled notice, status cancelled, nothing after, session reusable', async () => {
    const c = await client({ realtime: true });
    const from = c.messages.length;
    c.send({ action: 'stream-text', text: 'This is a long sentence that keeps going for quite a while so that it is still speaking when cancelled. '.repeat(3) });
    const first = await c.next((m) => typeof m.data === 'string', from);
    c.send({ action: 'cancel' });
    const notice = await c.next((m) => m.isCancelled === true, from);
    expect(notice).toEqual({ generationId: first.generationId, isFinished: true, isCancelled: true });
    const status = await c.next((m) => m.action === 'status' && m.message === 'cancelled', from);
    expect(status.connectionId).toEqual(expect.any(String));
    const noticeAt = c.messages.indexOf(notice);
    await new Promise((r) => setTimeout(r, 300));
    await c.roundTrip();
    expect(c.messages.slice(noticeAt + 1).filter((m) => m.generationId === first.generationId).map(brief)).toEqual([]);
    // reusable: the next turn speaks and ends normally
    const next = c.messages.length;
    c.send({ action: 'stream-text', text: 'After cancel. ' });
    c.send({ action: 'end-stream' });
    checkTurn(await collectTurn(c, next));
  });

  it('applies a re-sent config to text flushed afterwards', async () => {
    const c = await client();
    let from = c.messages.length;
    c.send({ action: 'stream-text', text: 'Same words. ' });
    c.send({ action: 'end-stream' });
    const s16 = audioBytes(await collectTurn(c, from));
    c.send({ action: 'stream-config', config: { model: MODEL, format: 'mulaw' } });
    from = c.messages.length;
    c.send({ action: 'stream-text', text: 'Same words. ' });
    c.send({ action: 'end-stream' });
    const mulaw = audioBytes(await collectTurn(c, from));
    // mulaw defaults to 8 kHz, 1 byte per sample: a quarter of 16 kHz s16le
    expect(Math.abs(mulaw.length * 4 - s16.length)).toBeLessThanOrEqual(64);
  });

  it('forwards ctx without echoing it, and keeps text out of logs when enableLogging is false', async () => {
    const secret = 'ctx-7f3a-secret';
    const spoken = 'Confidential words about the patient.';
    const logged = await client();
    let from = logged.messages.length;
    logged.send({ action: 'stream-text', text: 'Loggable words spoken. ', ctx: secret });
    logged.send({ action: 'end-stream' });
    await collectTurn(logged, from);
    expect(JSON.stringify(logged.messages)).not.toContain(secret);
    expect(logLines.some((l) => l.includes('Loggable words'))).toBe(true);
    expect(logLines.some((l) => l.includes(secret))).toBe(true); // ctx reaches the worker (logged when allowed)

    const quiet = await client({ enableLogging: false });
    from = quiet.messages.length;
    quiet.send({ action: 'stream-text', text: spoken, ctx: 'quiet-ctx-1' });
    quiet.send({ action: 'end-stream' });
    await collectTurn(quiet, from);
    expect(logLines.some((l) => l.includes('Confidential'))).toBe(false);
    expect(logLines.some((l) => l.includes('quiet-ctx-1'))).toBe(false);
  });

  it('puts diacritized text on the first chunk of each generation only when asked', async () => {
    const c = await client({ outputDiacritized: true, locale: 'he-IL', voicePromptId: 'c3d9e4f2-0000-4000-8000-000000000003' });
    const from = c.messages.length;
    c.send({ action: 'stream-text', text: 'שלום עולם. מה שלומך? ' });
    c.send({ action: 'end-stream' });
    const gens = checkTurn(await collectTurn(c, from));
    for (const list of gens.values()) {
      const [first, ...rest] = list;
      if (list.length > 1 || first?.data) {
        expect(first?.diacritized).toMatch(/[\u05B0-\u05BC]/);
        expect(rest.every((m) => m.diacritized === undefined)).toBe(true);
      }
    }
    const plain = await client();
    const p = plain.messages.length;
    plain.send({ action: 'stream-text', text: 'No diacritics. ' });
    plain.send({ action: 'end-stream' });
    expect((await collectTurn(plain, p)).some((m) => 'diacritized' in m)).toBe(false);
  });

  it('a worker-level error stops only its generation; the others and the turn continue', async () => {
    const c = await client();
    const from = c.messages.length;
    c.send({ action: 'stream-text', text: 'Good first sentence. Then a FAIL sentence. Good last sentence. ' });
    c.send({ action: 'end-stream' });
    const chunks = await collectTurn(c, from);
    const failed = chunks.filter((m) => m.error);
    expect(failed).toEqual([{ generationId: expect.any(String), error: 'generation failed: synthesis engine rejected the segment' }]);
    expect(chunks.filter((m) => m.generationId === failed[0]?.generationId)).toHaveLength(1);
    const gens = checkTurn(chunks);
    expect([...gens.values()].filter((l) => audioBytes(l).length > 0).length).toBe(2);
  });

  it('an unknown voice in an inline config tag fails that generation with a clear error', async () => {
    const c = await client();
    const from = c.messages.length;
    c.send({ action: 'stream-text', text: 'Fine. <config voicePromptId="no-such-voice"/>Broken. ' });
    c.send({ action: 'end-stream' });
    const chunks = await collectTurn(c, from);
    expect(chunks.find((m) => m.error)?.error).toBe('voice prompt not found: no-such-voice');
  });
});

describe('speech socket: tags and emoji split across messages', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  async function speak(pieces: string[], config: Record<string, unknown> = {}): Promise<Buffer> {
    const c = await connect(server);
    c.send({ action: 'stream-config', config: { model: MODEL, format: 's16le', realtime: false, firstAudioTimeout: 5_000, ...config } });
    const from = c.messages.length;
    for (const text of pieces) c.send({ action: 'stream-text', text });
    c.send({ action: 'end-stream' });
    const audio = audioBytes(await collectTurn(c, from));
    await c.close();
    return audio;
  }

  it('gives identical audio however a tag is split, and the tag changes the voice', async () => {
    const text = 'Hi <config locale="es-ES"/>amigo [Happy] great day.';
    const whole = await speak([text]);
    const split = await speak([...text]);
    const pieces = await speak(['Hi <con', 'fig locale="es', '-ES"/>amigo [Hap', 'py] great day.']);
    expect(split.equals(whole)).toBe(true);
    expect(pieces.equals(whole)).toBe(true);
    const untagged = await speak(['Hi amigo great day.']);
    expect(untagged.equals(whole)).toBe(false);
  });

  it('speaks an unknown bracket name literally', async () => {
    const known = await speak(['Hello [happy] there.']);
    const unknown = await speak(['Hello [dance] there.']);
    // "[dance]" is seven more characters of speech
    expect(unknown.length).toBeGreaterThan(known.length);
  });

  it('treats emoji as tags only with acceptEmojis, split anywhere', async () => {
    const text = 'Bonjour 🇫🇷 mes amis 😀 fin.';
    const asTags = await speak([text], { acceptEmojis: true });
    const split = await speak([...text], { acceptEmojis: true }); // code-point pieces split the flag's pair too
    expect(split.equals(asTags)).toBe(true);
    const asText = await speak([text]);
    expect(asText.equals(asTags)).toBe(false);
  });
});
