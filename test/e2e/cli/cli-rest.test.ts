import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../../src/server/app.js';
import { runCli } from '../../helpers/cli.js';
import { startTestServer, TEST_API_KEY } from '../../helpers/server.js';
import { syntheticVoice } from '../../unit/gender/synthetic-voice.js';
import { wavBytes } from '../../unit/gender/wav-fixture.js';

describe('voxpipe CLI against the reference service', () => {
  let server: RunningServer;
  let dir: string;
  let env: Record<string, string>;
  let maleWav: string;

  beforeAll(async () => {
    server = await startTestServer();
    env = { VOXPIPE_URL: server.url, VOXPIPE_API_KEY: TEST_API_KEY };
    dir = mkdtempSync(join(tmpdir(), 'voxpipe-cli-'));
    maleWav = join(dir, 'male.wav');
    writeFileSync(maleWav, wavBytes([syntheticVoice({ f0Hz: 110, seconds: 3 })], { sampleRate: 16000 }));
  });
  afterAll(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('prints help and exits 2 without a command, 2 for an unknown one', async () => {
    const none = await runCli([]);
    expect(none.code).toBe(2);
    expect(none.stdout).toContain('Commands:');
    const bad = await runCli(['frobnicate']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("unknown command 'frobnicate'");
  });

  it('uploads, lists, shows and deletes a voice prompt', async () => {
    const up = await runCli(['voices', 'upload', maleWav, '--title', 'Test Male', '--gender', 'male'], { env });
    expect(up.stderr).toBe('');
    expect(up.code).toBe(0);
    const id = up.stdout.trim();
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const list = await runCli(['voices', 'list'], { env });
    expect(list.code).toBe(0);
    expect(list.stdout).toContain(id);
    expect(list.stdout).toContain('Test Male');
    const get = await runCli(['voices', 'get', id, '--json'], { env });
    expect(JSON.parse(get.stdout)).toMatchObject({ id, gender: 'MALE' });
    expect((await runCli(['voices', 'delete', id], { env })).code).toBe(0);
    const gone = await runCli(['voices', 'get', id], { env });
    expect(gone.code).toBe(4);
  });

  it('classifies a file and maps a bad key to exit code 3', async () => {
    const ok = await runCli(['gender', 'classify', maleWav, '--json'], { env });
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({ predicted_gender: 'male' });
    const denied = await runCli(['gender', 'classify', maleWav], { env: { ...env, VOXPIPE_API_KEY: 'dd-00000000000000000000000000000000' } });
    expect(denied.code).toBe(3);
    expect(denied.stderr).toContain('[unauthorized]');
  });

  it('prints the usage report and rejects a reversed range before any request', async () => {
    const report = await runCli(['usage', '--json'], { env });
    expect(report.code).toBe(0);
    expect(JSON.parse(report.stdout)).toMatchObject({ customerId: 'dev', items: expect.any(Array) });
    const bad = await runCli(['usage', '--from', '2026-02-01', '--to', '2026-01-01'], { env });
    expect(bad.code).toBe(5);
  });

  it('lists the benchmarks and refuses an unknown one', async () => {
    const list = await runCli(['bench', '--help']);
    expect(list.code).toBe(0);
    expect(list.stdout).toContain('pipeline');
    expect((await runCli(['bench', 'nope'])).code).toBe(2);
  });

  it('exits 6 when the service is unreachable', async () => {
    const r = await runCli(['voices', 'list', '--url', 'http://127.0.0.1:9'], { env: { VOXPIPE_API_KEY: TEST_API_KEY } });
    expect(r.code).toBe(6);
  });
});
