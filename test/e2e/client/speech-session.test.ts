/**
 * SpeechSession, pipeline and pool against the reference server over real sockets: LLM-like token streams
 * (one character at a time, tags and emoji split anywhere), multi-turn, barge-in at random points, pool
 * reuse and replacement, reconnect, and metrics.
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../../src/server/app.js';
import { SessionPool } from '../../../src/client/pool.js';
import { SpeechSession, type SpeechSessionOptions } from '../../../src/client/speech-session.js';
import type { GenerationError } from '../../../src/client/speech/errors.js';
import { TURN_CHANNEL, type TurnMetrics } from '../../../src/client/speech/turn-metrics.js';
import { pipeTokens, speak } from '../../../src/pipeline/speak.js';
import type { StreamConfig } from '../../../src/protocol/speech.js';
import { VoxpipeError } from '../../../src/errors.js';
import { TEST_API_KEY, startTestServer, wsBase } from '../../helpers/server.js';
import { collect, rng, sayAll } from '../../unit/client/test-utils.js';

const CONFIG: StreamConfig = { model: 'dd-etts-3.3', format: 's16le', sampleRate: 16000, realtime: false, firstAudioTimeout: 5 };
let server: RunningServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

function connect(options: Partial<SpeechSessionOptions> = {}): Promise<SpeechSession> {
  return SpeechSession.connect({ baseUrl: wsBase(server), apiKey: TEST_API_KEY, config: CONFIG, ...options });
}


/** Yields `text` in pieces of 1..maxLen UTF-16 units (surrogate pairs and tags split anywhere), with 0-1 ms pauses. */
async function* llmTokens(text: string, random: () => number, maxLen = 1): AsyncGenerator<string> {
  for (let i = 0; i < text.length; ) {
    const len = 1 + Math.floor(random() * maxLen);
    yield text.slice(i, i + len);
    i += len;
    if (random() < 0.3) await new Promise((r) => setTimeout(r, random() < 0.5 ? 0 : 1));
  }
}


/** Runs `fn` with a connected session and closes it afterwards. */
async function withConnection(options: Partial<SpeechSessionOptions>, fn: (session: SpeechSession) => Promise<void>): Promise<void> {
  const session = await connect(options);
  try {
    await fn(session);
  } finally {
    await session.close();
  }
}

function killServerSockets(): void {
  for (const ws of server.context.ws.clients) ws.terminate();
}

const TAGGED = 'Hello there! <config locale="es-ES"/>Hola, ¿qué tal? [happy] Muy bien 👩🏽‍🚀 gracias.</config> [default]Back to normal 🇫🇷 now.';

describe('token pipeline against the reference server', () => {
  it('never splits a tag or a grapheme cluster, whatever the token boundaries', async () => {
    const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' });
    for (let seed = 1; seed <= 20; seed++) {
      const frames: string[] = [];
      for await (const frame of speak(llmTokens(TAGGED, rng(seed), 4), { windowMs: 1, config: { acceptEmojis: true } })) frames.push(frame.text);
      expect(frames.join('')).toBe(TAGGED);
      const whole = [...graphemes.segment(TAGGED)].map((g) => g.index);
      let offset = 0;
      for (const text of frames) {
        expect(whole).toContain(offset);
        const before = TAGGED.slice(0, offset);
        expect((before.match(/</g) ?? []).length).toBe((before.match(/>/g) ?? []).length);
        expect((before.match(/\[/g) ?? []).length).toBe((before.match(/]/g) ?? []).length);
        offset += text.length;
      }
    }
  });

  it('speaks a one-character-at-a-time stream with tags and emoji, reporting the voice state of each piece', async () => {
    await withConnection({ config: { ...CONFIG, acceptEmojis: true } }, async (session) => {
      const turn = session.turn();
      const writing = pipeTokens(turn, llmTokens(TAGGED, rng(7)), { config: session.config });
      const chunks = await collect(turn.audio());
      const summary = await writing;
      const metrics = await turn.done;
      expect(chunks.at(-1)?.isFinal).toBe(true);
      expect(chunks.filter((c) => c.isFinal)).toHaveLength(1);
      expect(metrics.outcome).toBe('final');
      expect(metrics.audioMs).toBeGreaterThan(500);
      expect(summary.characters).toBe(TAGGED.length);
      const spoken = summary.segments.map((s) => s.text).join('');
      expect(spoken).not.toContain('<config');
      expect(spoken).not.toContain('[happy]');
      const spanish = summary.segments.find((s) => s.text.includes('Hola'));
      expect(spanish?.state.locale).toBe('es-ES');
      expect(summary.segments.find((s) => s.text.includes('Muy'))?.state.emotion).toBe('happy');
      expect(summary.segments.find((s) => s.text.includes('now'))?.state.locale).toBe('fr-FR');
      expect(metrics.ttfaFromFirstTokenMs).toBeGreaterThanOrEqual(metrics.ttfaFromFirstTextMs ?? Infinity);
    });
  });

  it('runs many turns on one session, each with its own generations', async () => {
    await withConnection({}, async (session) => {
      const seen = new Set<string>();
      for (let i = 0; i < 4; i++) {
        const turn = session.turn();
        const writing = pipeTokens(turn, llmTokens(`Turn number ${i}. Still going, with a second clause.`, rng(i), 3));
        const chunks = await collect(turn.audio());
        await writing;
        const ids = new Set(chunks.map((c) => c.generationId));
        for (const id of ids) expect(seen.has(id)).toBe(false);
        for (const id of ids) seen.add(id);
        expect(chunks.at(-1)?.isFinal).toBe(true);
        const metrics = await turn.done;
        expect(metrics.turnId).toBe(i + 1);
      }
    });
  });
});

describe('generation errors and diacritics against the reference server', () => {
  it('surfaces a failed generation as a GenerationError while the turn goes on to isFinal', async () => {
    await withConnection({}, async (session) => {
      const errors: GenerationError[] = [];
      session.on('generationError', (e) => errors.push(e));
      const turn = session.turn();
      const writing = pipeTokens(turn, llmTokens('Fine first. <config voicePromptId="no-such-voice"/>Broken part. ', rng(9), 3));
      const chunks = await collect(turn.audio());
      await writing;
      const metrics = await turn.done;
      expect(errors).toHaveLength(1);
      expect(errors[0]).toMatchObject({ code: 'generation_error', message: 'voice prompt not found: no-such-voice' });
      expect(turn.generationErrors).toEqual(errors);
      expect(chunks.some((c) => c.generationId === errors[0]?.generationId)).toBe(false);
      expect(chunks.at(-1)?.isFinal).toBe(true);
      expect(metrics.generationErrorCount).toBe(1);
      expect(metrics.audioMs).toBeGreaterThan(0);
    });
  });

  it('passes the diacritized text of each generation on its first chunk', async () => {
    await withConnection({ config: { ...CONFIG, locale: 'he-IL', voicePromptId: 'c3d9e4f2-0000-4000-8000-000000000003', outputDiacritized: true } }, async (session) => {
      const chunks = await sayAll(session, 'שלום עולם. מה שלומך היום?');
      const firsts = new Map<string, (typeof chunks)[number]>();
      for (const c of chunks) if (!firsts.has(c.generationId)) firsts.set(c.generationId, c);
      expect(firsts.size).toBeGreaterThanOrEqual(1);
      for (const first of firsts.values()) expect(first.diacritized).toMatch(/[\u0591-\u05C7]/);
      expect(chunks.filter((c) => c.diacritized !== undefined)).toHaveLength(firsts.size);
    });
  });
});

describe('barge-in against the reference server', () => {
  it('delivers no chunk after cancel at random points and keeps the session usable', async () => {
    await withConnection({ config: { ...CONFIG, realtime: true } }, async (session) => {
      const random = rng(42);
      let cancelledRounds = 0;
      for (let round = 0; round < 8; round++) {
        const turn = session.turn();
        const writing = pipeTokens(turn, llmTokens('This is a long answer that keeps going. '.repeat(6), random, 5));
        const stopAfter = Math.floor(random() * 4);
        let cancelled = false;
        let late = 0;
        let seen = 0;
        const useDelay = random() < 0.5;
        if (useDelay) setTimeout(() => void ((cancelled = true), turn.cancel()), 5 + Math.floor(random() * 40));
        for await (const chunk of turn.audio()) {
          if (cancelled) late++;
          expect(chunk.turnId).toBe(turn.id);
          if (!useDelay && ++seen > stopAfter) {
            cancelled = true;
            const result = await turn.cancel();
            expect(result.acknowledged).toBe(true);
          }
        }
        await writing;
        const metrics = await turn.done;
        expect(late).toBe(0);
        if (metrics.outcome === 'cancelled') {
          cancelledRounds++;
          expect(metrics.cancelAckMs).toBeGreaterThanOrEqual(0);
          expect(metrics.timeToSilenceMs).toBeLessThan(metrics.cancelAckMs ?? Infinity);
        }
      }
      expect(cancelledRounds).toBeGreaterThanOrEqual(6);
      const after = session.turn();
      after.write('Still here.');
      after.end();
      const chunks = await collect(after.audio());
      expect(chunks.at(-1)?.isFinal).toBe(true);
      expect(chunks.every((c) => c.turnId === after.id)).toBe(true);
    });
  });
});

describe('connection loss against the reference server', () => {
  it('reconnects between turns with a new connection and the same config', async () => {
    await withConnection({ reconnect: { baseDelayMs: 10, maxDelayMs: 50 } }, async (session) => {
      const before = session.connectionId;
      const reconnected = new Promise((r) => session.once('connected', r));
      killServerSockets();
      await reconnected;
      expect(session.connectionId).toBeDefined();
      expect(session.connectionId).not.toBe(before);
      expect((await sayAll(session, 'After the reconnect.')).at(-1)?.isFinal).toBe(true);
    });
  });

  it('fails a turn with connection_closed when the socket drops mid-turn', async () => {
    await withConnection({ config: { ...CONFIG, realtime: true }, reconnect: false }, async (session) => {
      const turn = session.turn();
      turn.write('A sentence long enough to still be speaking when the socket dies. '.repeat(3));
      turn.end();
      let error: unknown;
      try {
        for await (const _ of turn.audio()) session.terminateSocket();
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(VoxpipeError);
      expect((error as VoxpipeError).code).toBe('connection_closed');
    });
  });

  it('refuses a bad key at the handshake', async () => {
    await expect(SpeechSession.connect({ baseUrl: wsBase(server), apiKey: 'dd-00000000000000000000000000000000', config: CONFIG })).rejects.toMatchObject({ code: 'unauthorized' });
  });

  it('reports a model the account cannot use as a session error at connect', async () => {
    await expect(connect({ config: { ...CONFIG, model: 'no-such-model' } })).rejects.toMatchObject({
      code: 'session_error',
      message: 'queue route not found for model: no-such-model',
    });
  });
});

describe('session upkeep against the reference server', () => {
  it('keeps a session alive across keepalive pings and re-configures it mid-session', async () => {
    await withConnection({ pingIntervalMs: 20, pongTimeoutMs: 500 }, async (session) => {
      const drops: unknown[] = [];
      session.on('disconnected', (e) => drops.push(e));
      const id = session.connectionId;
      await new Promise((r) => setTimeout(r, 120));
      expect(drops).toEqual([]);
      expect(session.connectionId).toBe(id);
      await session.configure({ ...CONFIG, locale: 'es-ES', voicePromptId: 'd4cafe03-0000-4000-8000-000000000004' });
      expect((await sayAll(session, 'Hola de nuevo.')).at(-1)?.isFinal).toBe(true);
      await expect(session.configure({ ...CONFIG, model: 'nope' })).rejects.toMatchObject({ code: 'session_error', message: 'queue route not found for model: nope' });
      expect((await sayAll(session, 'Todavía funciona.')).at(-1)?.isFinal).toBe(true);
    });
  });
});

describe('session pool against the reference server', () => {
  it('reuses a warm session and replaces one whose socket was killed', async () => {
    const pool = await SessionPool.create({ baseUrl: wsBase(server), apiKey: TEST_API_KEY, config: CONFIG, minSize: 1, maxSize: 2, reconnect: false, healthCheckIntervalMs: 0 });
    try {
      const speakOnce = async (session: SpeechSession): Promise<string | undefined> => {
        const turn = session.turn();
        turn.write('Pooled.');
        turn.end();
        await collect(turn.audio());
        return session.connectionId;
      };
      const a = await pool.withSession(speakOnce);
      const b = await pool.withSession(speakOnce);
      expect(b).toBe(a);
      const replaced = new Promise((r) => pool.once('created', r));
      killServerSockets();
      await replaced;
      const c = await pool.withSession(speakOnce);
      expect(c).not.toBe(a);
      expect(pool.size).toBe(1);
    } finally {
      await pool.close();
    }
  });
});

describe('session pool with reconnecting sessions against the reference server', () => {
  it('keeps the same pooled session across a killed socket: it reconnects and re-configures itself', async () => {
    const pool = await SessionPool.create({ baseUrl: wsBase(server), apiKey: TEST_API_KEY, config: CONFIG, minSize: 1, maxSize: 1, reconnect: { baseDelayMs: 5, maxDelayMs: 20 }, healthCheckIntervalMs: 0 });
    try {
      const first = await pool.withSession(async (session) => {
        const reconnected = new Promise((r) => session.once('connected', r));
        killServerSockets();
        await reconnected;
        return session;
      });
      const again = await pool.withSession(async (session) => {
        expect((await sayAll(session, 'Back again.')).at(-1)?.isFinal).toBe(true);
        return session;
      });
      expect(again).toBe(first);
      expect(pool.size).toBe(1);
    } finally {
      await pool.close();
    }
  });
});

describe('metrics against the reference server', () => {
  it('publishes sane per-turn metrics on the diagnostics channel', async () => {
    const session = await connect();
    const published: TurnMetrics[] = [];
    const listener = (m: unknown): void => void published.push(m as TurnMetrics);
    subscribe(TURN_CHANNEL, listener);
    try {
      const turn = session.turn();
      pipeTokens(turn, llmTokens('Metrics should be sane. They measure time and audio.', rng(3), 4)).catch(() => {});
      const chunks = await collect(turn.audio());
      const metrics = await turn.done;
      const bytes = chunks.reduce((n, c) => n + c.data.length, 0);
      expect(published).toContainEqual(metrics);
      expect(metrics.audioBytes).toBe(bytes);
      expect(metrics.audioMs).toBeCloseTo(bytes / 32, 6);
      expect(metrics.ttfaFromFirstTextMs).toBeGreaterThan(0);
      expect(metrics.ttfaFromFirstTextMs).toBeLessThan(metrics.wallMs);
      expect(metrics.endToFinalMs).toBeGreaterThanOrEqual(0);
      expect(metrics.chunkCount).toBe(chunks.length);
      expect(metrics.generationCount).toBeGreaterThanOrEqual(1);
      expect(metrics.realtimeFactor).toBeGreaterThan(1);
      expect(metrics.maxChunkGapMs).toBeGreaterThanOrEqual(metrics.avgChunkGapMs ?? Infinity);
      expect(metrics.cancelAckMs).toBeUndefined();
    } finally {
      unsubscribe(TURN_CHANNEL, listener);
      await session.close();
    }
  });
});

describe('audio duration across formats against the reference server', () => {
  it('measures the same speech as the same duration in every format (WAV headers stripped, MP3 frames, Ogg Opus granules)', async () => {
    const text = 'The same sentence in every format. And a second one.';
    const durations: Record<string, number> = {};
    for (const format of ['s16le', 'wav', 'mulaw', 'mp3', 'opus'] as const) {
      const session = await connect({ config: { ...CONFIG, format, sampleRate: format === 'mulaw' ? 8000 : 24000 } });
      try {
        const turn = session.turn();
        turn.write(text);
        turn.end();
        await collect(turn.audio());
        durations[format] = (await turn.done).audioMs;
      } finally {
        await session.close();
      }
    }
    const reference = durations.s16le ?? 0;
    expect(reference).toBeGreaterThan(1000);
    expect(durations.wav).toBeCloseTo(reference, 0);
    expect(Math.abs((durations.mulaw ?? 0) - reference)).toBeLessThan(5);
    expect(Math.abs((durations.opus ?? 0) - reference)).toBeLessThan(60);
    expect(Math.abs((durations.mp3 ?? 0) - reference)).toBeLessThan(200);
  });
});

