import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import type { RunningServer } from '../../src/server/app.js';
import { startTestServer, TEST_API_KEY } from '../helpers/server.js';

describe('reference server boot', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it('listens on a loopback port and accepts the configured key', () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(server.port).toBeGreaterThan(0);
    expect(server.apiKeys).toContain(TEST_API_KEY);
  });

  it('rejects WebSocket upgrades on unknown paths with 404', async () => {
    const ws = new WebSocket(`${server.url.replace('http', 'ws')}/no-such-socket`);
    const status = await new Promise<number>((resolve) => ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0)));
    expect(status).toBe(404);
  });
});
