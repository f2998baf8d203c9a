import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UsageClient } from '../../../src/client/usage.js';
import { utcDate } from '../../../src/protocol/usage.js';
import type { RunningServer } from '../../../src/server/app.js';
import { startTestServer, TEST_API_KEY, wsBase } from '../../helpers/server.js';
import { openScriptedSocket } from '../voices/ws-session.js';

/** Polls `read` until it returns `expected` (the meter is written by the socket's own event handlers). */
async function until<T>(read: () => Promise<T>, expected: T, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (JSON.stringify(value) === JSON.stringify(expected) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('speech connections are metered', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it('a /ws connection counts live on its model while open and leaves a usage record', async () => {
    const usage = new UsageClient({ baseUrl: server.url, apiKey: TEST_API_KEY });
    const count = async (): Promise<number[]> => {
      const data = await usage.connections(['dd-etts-2.5', 'dd-etts-3.0']);
      return [data['dd-etts-2.5']?.concurrent_connections ?? -1, data['dd-etts-3.0']?.concurrent_connections ?? -1];
    };
    const ws = await openScriptedSocket(wsBase(server), TEST_API_KEY);
    await ws.waitFor((m) => m.action === 'status');
    expect(await count()).toEqual([0, 0]);
    ws.send({ action: 'stream-config', config: { model: 'dd-etts-2.5' } });
    expect(await until(count, [1, 0])).toEqual([1, 0]);
    ws.send({ action: 'stream-config', config: { model: 'dd-etts-3.0' } });
    expect(await until(count, [0, 1])).toEqual([0, 1]);
    await ws.close();
    expect(await until(count, [0, 0])).toEqual([0, 0]);

    const today = utcDate(Date.now());
    const report = await usage.byModel({ from: today, to: today });
    expect(report.items.map((i) => [i.modelId, i.region, i.daysWithUsage])).toEqual([
      ['dd-etts-2.5', 'us', 1],
      ['dd-etts-3.0', 'us', 1],
    ]);
    for (const item of report.items) expect(item.totalUsageSecondsTimesSize).toBeGreaterThan(0);
  });
});
