import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../../src/server/app.js';
import { runCli } from '../../helpers/cli.js';
import { startTestServer, TEST_API_KEY } from '../../helpers/server.js';

const VOICE = 'a1f7c2d0-0000-4000-8000-000000000001';

describe('voxpipe live', () => {
  let server: RunningServer;
  let env: Record<string, string>;
  let dir: string;
  beforeAll(async () => {
    server = await startTestServer();
    env = { VOXPIPE_URL: server.url, VOXPIPE_API_KEY: TEST_API_KEY };
    dir = mkdtempSync(join(tmpdir(), 'voxpipe-live-cli-'));
  });
  afterAll(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('lists enums', async () => {
    const inputs = await runCli(['live', 'enums', 'input-stream-types'], { env });
    expect(inputs.stdout.split('\n')).toContain('HlsPullSource');
    const outputs = await runCli(['live', 'enums', 'output-stream-types', 'SrtPushSource', '--json'], { env });
    expect(JSON.parse(outputs.stdout)).toEqual(expect.arrayContaining(['SrtPushOutput', 'RtmpPushOutput', '608']));
  });

  it('creates, lists, updates, starts, stops and deletes a service', async () => {
    const create = await runCli(
      ['live', 'create', '--name', 'Demo', '--input-type', 'HlsPushSource', '--output-type', 'HlsPushOutput', '--output-url', 'https://cdn.example/out', '--lang', 'en-US', '--voice', VOICE, '--json'],
      { env },
    );
    expect(create.stderr).toBe('');
    const created = JSON.parse(create.stdout) as { id: number; state: string };
    expect(created.state).toBe('stopped');
    const list = await runCli(['live', 'list'], { env });
    expect(list.stdout).toMatch(new RegExp(`${created.id}\\s+Demo\\s+stopped`));
    const patch = join(dir, 'patch.json');
    writeFileSync(patch, JSON.stringify({ name: 'Renamed' }));
    const updated = await runCli(['live', 'update', String(created.id), '--file', patch, '--json'], { env });
    expect(JSON.parse(updated.stdout)).toMatchObject({ id: created.id, config: { name: 'Renamed' } });
    expect(JSON.parse((await runCli(['live', 'start', String(created.id), '--json'], { env })).stdout)).toMatchObject({ state: 'running' });
    expect(JSON.parse((await runCli(['live', 'status', String(created.id)], { env })).stdout)).toMatchObject({ state: 'running' });
    expect(JSON.parse((await runCli(['live', 'stop', String(created.id), '--json'], { env })).stdout)).toMatchObject({ state: 'stopped' });
    expect((await runCli(['live', 'delete', String(created.id)], { env })).code).toBe(0);
    expect((await runCli(['live', 'get', String(created.id)], { env })).code).toBe(4);
  });

  it('reports an incompatible config with the service message and exit code 5', async () => {
    const r = await runCli(['live', 'create', '--name', 'Bad', '--input-type', 'HlsPushSource', '--output-type', 'SrtPushOutput', '--output-url', 'srt://x:1', '--lang', 'en-US', '--voice', VOICE], { env });
    expect(r.code).toBe(5);
    expect(r.stderr).toContain('not compatible with input HlsPushSource');
  });
});
