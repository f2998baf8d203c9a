import { afterEach, describe, expect, it } from 'vitest';
import { SessionPool, type SessionPoolOptions } from '../../../src/client/pool.js';
import type { SpeechSession } from '../../../src/client/speech-session.js';
import { codeOf, collect } from './test-utils.js';
import { startFakeServer, type FakeServer } from './fake-speech-server.js';

let server: FakeServer | undefined;
let pool: SessionPool | undefined;

async function setup(options: Partial<SessionPoolOptions> = {}): Promise<{ server: FakeServer; pool: SessionPool }> {
  server = await startFakeServer();
  pool = await SessionPool.create({ baseUrl: server.url, config: { model: 'dd-etts-3.3' }, healthCheckIntervalMs: 0, ...options });
  return { server, pool };
}

async function speakOnce(session: SpeechSession): Promise<string | undefined> {
  const turn = session.turn();
  turn.write('hi');
  turn.end();
  for await (const _ of turn.audio());
  return session.connectionId;
}


afterEach(async () => {
  await pool?.close();
  await server?.close();
  pool = undefined;
  server = undefined;
});

describe('SessionPool', () => {
  it('pre-warms minSize configured sessions and reuses them without a new handshake', async () => {
    const { server: s, pool: p } = await setup({ minSize: 2, maxSize: 3 });
    expect(s.connections).toBe(2);
    expect(s.received.filter((m) => m.action === 'stream-config')).toHaveLength(2);
    const ids = [];
    for (let i = 0; i < 4; i++) ids.push(await p.withSession(speakOnce));
    expect(s.connections).toBe(2);
    expect(new Set(ids).size).toBe(1);
  });

  it('grows to maxSize under load, then makes callers wait, and fails a long wait with pool_exhausted', async () => {
    const { server: s, pool: p } = await setup({ minSize: 0, maxSize: 2, acquireTimeoutMs: 50 });
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const holders = [p.withSession(() => gate), p.withSession(() => gate)];
    expect(await codeOf(p.withSession(() => 1))).toBe('pool_exhausted');
    release();
    await Promise.all(holders);
    expect(s.connections).toBe(2);
    expect(await p.withSession(() => 'ok')).toBe('ok');
    expect(s.connections).toBe(2);
  });

  it('replaces a session whose socket was killed', async () => {
    const { server: s, pool: p } = await setup({ minSize: 1, maxSize: 1, reconnect: false });
    const first = await p.withSession(speakOnce);
    const replaced = new Promise((r) => p.once('created', r));
    for (const ws of s.sockets) ws.terminate();
    await replaced;
    const second = await p.withSession(speakOnce);
    expect(second).not.toBe(first);
    expect(s.connections).toBe(2);
  });

  it('replaces a session returned with a turn still running', async () => {
    const { server: s, pool: p } = await setup({ minSize: 1, maxSize: 1 });
    const removed: string[] = [];
    p.on('removed', (_s, reason) => removed.push(reason));
    await p.withSession((session) => {
      session.turn().write('left running');
    });
    expect(removed).toEqual(['busy']);
    expect(await p.withSession(speakOnce)).toBe('conn-2');
    expect(s.connections).toBe(2);
  });

  it('waits for a cancel that was not awaited and an ended turn, then reuses the session', async () => {
    const { server: s, pool: p } = await setup({ minSize: 1, maxSize: 1 });
    const removed: string[] = [];
    p.on('removed', (_s, reason) => removed.push(reason));
    await p.withSession(async (session) => {
      const turn = session.turn();
      turn.write('barge me');
      await new Promise((r) => setTimeout(r, 3));
      void turn.cancel();
    });
    await p.withSession((session) => {
      const turn = session.turn();
      turn.write('ended but not read');
      turn.end();
      void collect(turn.audio());
    });
    expect(await p.withSession(speakOnce)).toBe('conn-1');
    expect(removed).toEqual([]);
    expect(s.connections).toBe(1);
  });

  it('health-checks idle sessions by ping and evicts idle ones above minSize', async () => {
    const { server: s, pool: p } = await setup({ minSize: 1, maxSize: 3, idleTimeoutMs: 1, healthCheckIntervalMs: 20 });
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let started = 0;
    let allStarted!: () => void;
    const three = new Promise<void>((r) => (allStarted = r));
    const hold = (): Promise<void> => {
      if (++started === 3) allStarted();
      return gate;
    };
    const holders = [p.withSession(hold), p.withSession(hold), p.withSession(hold)];
    await three;
    expect(p.size).toBe(3);
    release();
    await Promise.all(holders);
    await new Promise<void>((resolve) => p.on('removed', () => p.size === 1 && resolve()));
    expect(p.size).toBe(1);
    const pings = (): number => s.received.filter((m) => m.action === 'ping').length;
    const before = pings();
    while (pings() < before + 2) await new Promise((r) => setTimeout(r, 10));
    expect(p.size).toBe(1);
  });

  it('rejects waiters and new callers with pool_closed once closed', async () => {
    const { pool: p } = await setup({ minSize: 1, maxSize: 1 });
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const holder = p.withSession(() => gate);
    const waiter = p.withSession(() => 1);
    await p.close();
    release();
    expect(await codeOf(waiter)).toBe('pool_closed');
    expect(await codeOf(p.withSession(() => 1))).toBe('pool_closed');
    await holder;
  });

  it('stops waiting with aborted when the caller signal aborts, and keeps running borrowers unaffected', async () => {
    const { pool: p } = await setup({ minSize: 1, maxSize: 1 });
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const controller = new AbortController();
    const holder = p.withSession(async (session) => {
      await gate;
      return speakOnce(session);
    }, { signal: controller.signal });
    const waiter = p.withSession(() => 1, { signal: controller.signal });
    controller.abort();
    expect(await codeOf(waiter)).toBe('aborted');
    release();
    expect(await holder).toBe('conn-1');
    expect(p.waiting).toBe(0);
  });

  it('never lends a session older than maxAgeMs', async () => {
    const { pool: p } = await setup({ minSize: 1, maxSize: 1, maxAgeMs: 1 });
    const removed: string[] = [];
    p.on('removed', (_s, reason) => removed.push(reason));
    await new Promise((r) => setTimeout(r, 5));
    expect(await p.withSession(speakOnce)).not.toBe('conn-1');
    expect(removed[0]).toBe('expired');
    expect(removed.every((r) => r === 'expired')).toBe(true);
  });

  it('refuses nonsense sizes', async () => {
    expect(await codeOf(SessionPool.create({ baseUrl: 'ws://127.0.0.1:1', config: { model: 'm' }, minSize: 3, maxSize: 2 }))).toBe('invalid_argument');
  });
});
