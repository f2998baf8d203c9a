import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UsageClient } from '../../../src/client/usage.js';
import { AuthenticationError, BadRequestError } from '../../../src/errors.js';
import type { RunningServer } from '../../../src/server/app.js';
import { accountSchema, DEFAULT_SERVICE_CONFIG, type ServiceConfig } from '../../../src/server/config.js';
import { SqliteConnectionMeter } from '../../../src/server/usage/meter.js';
import { startTestServer, TEST_API_KEY } from '../../helpers/server.js';

const OTHER_KEY = 'dd-11111111111111111111111111111111';
const config: ServiceConfig = {
  ...DEFAULT_SERVICE_CONFIG,
  accounts: [accountSchema.parse({ id: 'dev' }), accountSchema.parse({ id: 'other', apiKeys: [OTHER_KEY], models: ['dd-etts-3.0'], region: 'eu' })],
};
const T = (iso: string): number => Date.parse(iso);

describe('usage and concurrent connections over HTTP', () => {
  let server: RunningServer;
  let usage: UsageClient;
  let clock = 0;
  let meter: SqliteConnectionMeter;
  const at = (iso: string): void => {
    clock = T(iso);
  };
  const get = async (path: string, key: string | null = TEST_API_KEY): Promise<[number, unknown]> => {
    const res = await fetch(`${server.url}${path}`, { headers: key ? { 'x-api-key': key } : {} });
    return [res.status, await res.json()];
  };

  beforeAll(async () => {
    server = await startTestServer({ config });
    usage = new UsageClient({ baseUrl: server.url, apiKey: TEST_API_KEY, maxRetries: 0 });
    // Scripted sessions, metered into the server's own database on a hand-moved clock.
    meter = new SqliteConnectionMeter(server.context.db, () => clock);
    at('2026-03-01T09:00:00Z');
    const s1 = meter.open('dev', 'us');
    at('2026-03-01T09:00:30Z');
    s1.setModel('dd-etts-3.0');
    at('2026-03-01T10:00:30Z');
    s1.setModel('dd-etts-2.5');
    at('2026-03-01T10:30:30Z');
    s1.close();
    at('2026-03-01T23:30:00Z');
    const s2 = meter.open('dev', 'eu');
    s2.setModel('dd-etts-3.0');
    at('2026-03-02T00:45:00Z');
    s2.close();
    at('2026-03-02T10:00:00Z');
    const s5 = meter.open('other', 'eu');
    s5.setModel('dd-etts-3.0');
    at('2026-03-02T11:00:00Z');
    s5.close();
    at('2026-03-02T12:00:00Z');
    const s3 = meter.open('dev', 'us');
    s3.setModel('dd-etts-3.0');
    at('2026-03-02T12:20:00Z');
    s3.close();
    at('2026-03-03T08:00:00Z');
    const neverConfigured = meter.open('dev', 'us');
    at('2026-03-03T09:00:00Z');
    neverConfigured.close();
    at('2026-03-05T10:00:00Z');
    const s6 = meter.open('dev', 'us');
    s6.setModel('dd-etts-1.1');
    at('2026-03-05T11:00:00Z');
    s6.close();
  });
  afterAll(() => server.close());

  it('reports the hand-computed aggregates of the scripted sessions', async () => {
    const seconds = 4 * 86_400;
    expect(await usage.byModel({ from: '2026-03-01', to: '2026-03-04' })).toEqual({
      customerId: 'dev',
      from: '2026-03-01',
      to: '2026-03-04',
      items: [
        // s1 after the switch: 10:00:30–10:30:30 on 1 March
        { modelId: 'dd-etts-2.5', region: 'us', totalUsageSecondsTimesSize: 1800, totalConcurrencyHours: 0.5, averageInstancesOverRange: 1800 / seconds, daysWithUsage: 1 },
        // s2: 23:30 on 1 March to 00:45 on 2 March
        { modelId: 'dd-etts-3.0', region: 'eu', totalUsageSecondsTimesSize: 4500, totalConcurrencyHours: 1.25, averageInstancesOverRange: 4500 / seconds, daysWithUsage: 2 },
        // s1 before the switch (1 h on 1 March) + s3 (20 min on 2 March)
        { modelId: 'dd-etts-3.0', region: 'us', totalUsageSecondsTimesSize: 4800, totalConcurrencyHours: 4800 / 3600, averageInstancesOverRange: 4800 / seconds, daysWithUsage: 2 },
      ],
    });
  });

  it('reports the same sessions as daily rows', async () => {
    const daily = await usage.daily({ from: '2026-03-01', to: '2026-03-04', modelId: 'dd-etts-3.0' });
    expect(daily.customerId).toBe('dev');
    expect(daily.items.map((i) => [i.date, i.modelId, i.region, i.usageSecondsTimesSize, i.concurrencyHours, i.averageSize])).toEqual([
      ['2026-03-01', 'dd-etts-3.0', 'eu', 1800, 0.5, 1800 / 86_400],
      ['2026-03-01', 'dd-etts-3.0', 'us', 3600, 1, 3600 / 86_400],
      ['2026-03-02', 'dd-etts-3.0', 'eu', 2700, 0.75, 2700 / 86_400],
      ['2026-03-02', 'dd-etts-3.0', 'us', 1200, 1200 / 3600, 1200 / 86_400],
    ]);
    expect(await get('/api/v1/usage/concurrent?from=2026-03-04&to=2026-03-01')).toEqual([
      400,
      { success: false, message: 'Invalid date range: to (2026-03-01) is before from (2026-03-04)' },
    ]);
  });

  it('clips to the range and applies the model and region filters', async () => {
    const day = await usage.byModel({ from: new Date(T('2026-03-02T18:00:00Z')), to: '2026-03-02' });
    expect(day.items.map((i) => [i.modelId, i.region, i.totalUsageSecondsTimesSize, i.daysWithUsage, i.averageInstancesOverRange])).toEqual([
      ['dd-etts-3.0', 'eu', 2700, 1, 2700 / 86_400],
      ['dd-etts-3.0', 'us', 1200, 1, 1200 / 86_400],
    ]);
    const march = { from: '2026-03-01', to: '2026-03-31' };
    expect((await usage.byModel({ ...march, modelId: 'dd-etts-3.0' })).items.map((i) => i.region)).toEqual(['eu', 'us']);
    expect((await usage.byModel({ ...march, region: 'us' })).items.map((i) => i.modelId)).toEqual(['dd-etts-1.1', 'dd-etts-2.5', 'dd-etts-3.0']);
    expect((await usage.byModel({ ...march, modelId: 'dd-etts-3.0', region: 'eu' })).items).toHaveLength(1);
    expect((await usage.byModel({ ...march, modelId: 'nope' })).items).toEqual([]);
    expect((await usage.byModel({ from: '2025-03-01', to: '2025-03-31' })).items).toEqual([]);
  });

  it("reports only the caller's account", async () => {
    const other = new UsageClient({ baseUrl: server.url, apiKey: OTHER_KEY });
    expect(await other.byModel({ from: '2026-03-01', to: '2026-03-04' })).toEqual({
      customerId: 'other',
      from: '2026-03-01',
      to: '2026-03-04',
      items: [{ modelId: 'dd-etts-3.0', region: 'eu', totalUsageSecondsTimesSize: 3600, totalConcurrencyHours: 1, averageInstancesOverRange: 3600 / 345_600, daysWithUsage: 1 }],
    });
  });

  it('refuses bad ranges and keys with {success:false, message}', async () => {
    const base = '/api/v1/usage/concurrent/by-model';
    const bad = (message: string): [number, unknown] => [400, { success: false, message }];
    expect(await get(`${base}?to=2026-03-01`)).toEqual(bad('Invalid date range: from and to are required (YYYY-MM-DD)'));
    expect(await get(`${base}?from=2026-03-01`)).toEqual(bad('Invalid date range: from and to are required (YYYY-MM-DD)'));
    expect(await get(`${base}?from=03/01/2026&to=2026-03-02`)).toEqual(bad('Invalid date range: from must be a date in YYYY-MM-DD form, got "03/01/2026"'));
    expect(await get(`${base}?from=2026-03-01&to=2026-02-30`)).toEqual(bad('Invalid date range: to must be a date in YYYY-MM-DD form, got "2026-02-30"'));
    expect(await get(`${base}?from=2026-03-02&to=2026-03-01`)).toEqual(bad('Invalid date range: to (2026-03-01) is before from (2026-03-02)'));
    expect(await get(`${base}?from=2026-01-01&to=2027-01-02`)).toEqual(bad('Invalid date range: 367 days requested, the maximum is 366 (from and to inclusive)'));
    expect((await get(`${base}?from=2028-01-01&to=2028-12-31`))[0]).toBe(200);
    expect(await get(`${base}?from=2026-03-01&to=2026-03-02`, null)).toEqual([401, { success: false, message: 'Unauthorized: invalid or missing API key' }]);
    await expect(usage.byModel({ from: '2026-03-02', to: '2026-03-01' })).rejects.toMatchObject({ code: 'invalid_argument' });
    await expect(new UsageClient({ baseUrl: server.url, maxRetries: 0 }).byModel({ from: '2026-03-01', to: '2026-03-01' })).rejects.toBeInstanceOf(AuthenticationError);
  });

  it('counts live connections per model for the batch query', async () => {
    at('2026-03-06T10:00:00Z');
    const a = meter.open('dev', 'us');
    const b = meter.open('dev', 'us');
    const c = meter.open('dev', 'us');
    const elsewhere = meter.open('other', 'eu');
    a.setModel('dd-etts-3.0');
    b.setModel('dd-etts-3.0');
    c.setModel('dd-etts-2.5');
    elsewhere.setModel('dd-etts-3.0');
    try {
      expect(await get('/api/v1/concurrent_connections/batch?model_ids=dd-etts-3.0,%20dd-etts-2.5,dd-etts-1.1,dd-etts-3.0')).toEqual([
        200,
        {
          success: true,
          message: 'Operation successful',
          data: {
            'dd-etts-3.0': { concurrent_connections: 2, desired_concurrent_connections: 2 },
            'dd-etts-2.5': { concurrent_connections: 1, desired_concurrent_connections: 1 },
            'dd-etts-1.1': { concurrent_connections: 0, desired_concurrent_connections: 0 },
          },
        },
      ]);
      b.setModel('dd-etts-2.5');
      expect(await usage.connections(['dd-etts-3.0', 'dd-etts-2.5'])).toEqual({
        'dd-etts-3.0': { concurrent_connections: 1, desired_concurrent_connections: 1 },
        'dd-etts-2.5': { concurrent_connections: 2, desired_concurrent_connections: 2 },
      });
      expect(await get('/api/v1/concurrent_connections/dd-etts-2.5')).toEqual([
        200,
        { success: true, message: 'Operation successful', data: { concurrent_connections: 2, desired_concurrent_connections: 2 } },
      ]);
    } finally {
      for (const s of [a, b, c, elsewhere]) s.close();
    }
    expect(await usage.connections(['dd-etts-3.0'])).toEqual({ 'dd-etts-3.0': { concurrent_connections: 0, desired_concurrent_connections: 0 } });
  });

  it('refuses bad model ids and keys', async () => {
    const batch = '/api/v1/concurrent_connections/batch';
    expect(await get(batch)).toEqual([400, { success: false, message: 'Invalid model IDs: model_ids is required (comma-separated model identifiers)' }]);
    expect(await get(`${batch}?model_ids=,%20,`)).toEqual([400, { success: false, message: 'Invalid model IDs: model_ids is required (comma-separated model identifiers)' }]);
    expect(await get(`${batch}?model_ids=dd-etts-3.0,nope,gpt`)).toEqual([400, { success: false, message: 'Invalid model IDs: nope, gpt' }]);
    // The other account may only use dd-etts-3.0.
    expect(await get(`${batch}?model_ids=dd-etts-2.5`, OTHER_KEY)).toEqual([400, { success: false, message: 'Invalid model IDs: dd-etts-2.5' }]);
    expect(await get(`${batch}?model_ids=dd-etts-3.0`, 'dd-22222222222222222222222222222222')).toEqual([401, { success: false, message: 'Unauthorized: invalid or missing API key' }]);
    expect(await get('/api/v1/concurrent_connections/nope')).toEqual([404, { success: false, message: 'Model not found' }]);
    await expect(usage.connections(['nope'])).rejects.toBeInstanceOf(BadRequestError);
    await expect(usage.connections([' '])).rejects.toMatchObject({ code: 'invalid_argument' });
  });
});
