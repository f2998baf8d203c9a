import { describe, expect, it } from 'vitest';
import { ChunkQueue } from '../../../src/client/speech/chunk-queue.js';

function queue(mark: number): { q: ChunkQueue<number>; events: string[] } {
  const events: string[] = [];
  const q = new ChunkQueue<number>(mark, { onHigh: () => events.push('high'), onLow: () => events.push('low') });
  return { q, events };
}

describe('ChunkQueue', () => {
  it('signals high at the mark and low once drained to half, in order', async () => {
    const { q, events } = queue(4);
    for (let i = 0; i < 6; i++) q.push(i);
    expect(events).toEqual(['high']);
    expect(q.size).toBe(6);
    const got: number[] = [];
    for (let i = 0; i < 3; i++) got.push((await q.next()).value as number);
    expect(events).toEqual(['high']);
    got.push((await q.next()).value as number);
    expect(events).toEqual(['high', 'low']);
    q.end();
    for (let r = await q.next(); !r.done; r = await q.next()) got.push(r.value);
    expect(got).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('hands an item straight to a waiting consumer without buffering', async () => {
    const { q, events } = queue(1);
    const pending = q.next();
    q.push(7);
    expect(await pending).toEqual({ value: 7, done: false });
    expect(q.size).toBe(0);
    expect(events).toEqual([]);
  });

  it('clear drops everything, ends a waiting consumer and releases the high mark', async () => {
    const { q, events } = queue(2);
    q.push(1);
    q.push(2);
    q.clear();
    expect(events).toEqual(['high', 'low']);
    expect(await q.next()).toEqual({ value: undefined, done: true });
    q.push(3);
    expect(q.size).toBe(0);
    const other = queue(2).q;
    const waiting = other.next();
    other.clear();
    expect(await waiting).toEqual({ value: undefined, done: true });
  });

  it('fail delivers what was queued first, then rejects; a waiting consumer is rejected at once', async () => {
    const { q } = queue(8);
    q.push(1);
    q.fail(new Error('boom'));
    expect(await q.next()).toEqual({ value: 1, done: false });
    await expect(q.next()).rejects.toThrow('boom');
    const other = queue(8).q;
    const waiting = other.next();
    other.fail(new Error('gone'));
    await expect(waiting).rejects.toThrow('gone');
  });

  it('allows a single consumer only', async () => {
    const { q } = queue(2);
    void q.next();
    await expect(q.next()).rejects.toThrow('single consumer');
  });
});
