import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LiveClient } from '../../../src/client/live.js';
import type { RunningServer } from '../../../src/server/app.js';
import { runCli } from '../../helpers/cli.js';
import { startTestServer, TEST_API_KEY } from '../../helpers/server.js';
import { hlsConfig } from '../live/fixtures.js';
import { startOrigin, type LiveOrigin } from '../live/hls-origin.js';

describe('voxpipe captions follow', () => {
  let server: RunningServer;
  let origin: LiveOrigin;
  let dir: string;
  let serviceId: number;
  let env: Record<string, string>;
  beforeAll(async () => {
    origin = await startOrigin();
    origin.publish(3);
    server = await startTestServer();
    env = { VOXPIPE_URL: server.url, VOXPIPE_API_KEY: TEST_API_KEY };
    serviceId = (await new LiveClient({ baseUrl: server.url, apiKey: TEST_API_KEY }).createService(hlsConfig(origin.masterUrl))).id;
    dir = mkdtempSync(join(tmpdir(), 'voxpipe-captions-'));
  });
  afterAll(async () => {
    await server.close();
    await origin.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('prints cues in order and writes an SRT file of them', async () => {
    const srt = join(dir, 'out.srt');
    const r = await runCli(['captions', 'follow', String(serviceId), '--lang', 'en-US', '--playlist-url', origin.masterUrl, '--count', '3', '--srt', srt], { env });
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines.map((l) => l.split('\t')[2])).toEqual(['line 0', 'line 1', 'line 2']);
    expect(r.stderr).toContain('3 cues, 0 duplicates dropped');
    const file = readFileSync(srt, 'utf8');
    expect(file).toMatch(/^1\r?\n00:00:10,000 --> 00:00:11,200\r?\nline 0/);
  });

  it('needs --lang', async () => {
    expect((await runCli(['captions', 'follow', String(serviceId)], { env })).code).toBe(2);
  });
});
