import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { RunningServer } from '../../../src/server/app.js';
import { runCli } from '../../helpers/cli.js';
import { startTestServer, TEST_API_KEY } from '../../helpers/server.js';
import { mp4File, startMediaServer, type MediaServer } from '../dubbing/media-fixtures.js';
import { stubDubbingEnv } from '../dubbing/harness.js';

describe('voxpipe dub', () => {
  let media: MediaServer;
  let server: RunningServer;
  let dataDir: string;
  let env: Record<string, string>;

  beforeAll(async () => {
    media = await startMediaServer({ '/media/videos/ep1.mp4': mp4File(6000) });
    stubDubbingEnv(media.url, 0);
    dataDir = mkdtempSync(join(tmpdir(), 'voxpipe-cli-dub-'));
    server = await startTestServer({ dataDir });
    env = { VOXPIPE_URL: server.url, VOXPIPE_API_KEY: TEST_API_KEY };
  });
  afterAll(async () => {
    await server.close();
    await media.close();
    vi.unstubAllEnvs();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('submits a job, waits with progress until delivered, lists and shows it', async () => {
    const jobFile = join(dataDir, 'job.json');
    writeFileSync(
      jobFile,
      JSON.stringify({
        sourceLocale: 'en-US',
        targetLocale: 'es-ES',
        sourceVideoPath: 's3://media/videos/ep1.mp4',
        exportPath: 's3://out/ep1.mp4',
        segments: [{ timestampStart: 500, timestampEnd: 2500, characterId: 'c1', characterName: 'Ana', sourceDialogue: 'Hello.', targetDialogue: 'Hola.' }],
        additionalProducts: [{ product: 'SRT', assetPath: 's3://out/ep1.srt' }],
      }),
    );
    const submit = await runCli(['dub', 'submit', '--file', jobFile, '--wait', '--timeout', '60'], { env });
    expect(submit.stderr).toContain('DELIVERED_TO_CLIENT'); // progress lines go to stderr
    expect(submit.code).toBe(0);
    const requestId = submit.stdout.split('\n')[0]?.trim() ?? '';
    expect(requestId.length).toBeGreaterThan(0);
    expect(submit.stdout).toContain(`${requestId}  DELIVERED_TO_CLIENT`);
    const list = await runCli(['dub', 'list', '--json'], { env });
    expect(JSON.parse(list.stdout)).toEqual(expect.arrayContaining([expect.objectContaining({ requestId, status: 'DELIVERED_TO_CLIENT' })]));
    const status = await runCli(['dub', 'status', requestId, '--json'], { env });
    expect(JSON.parse(status.stdout)).toMatchObject({ requestId, status: 'DELIVERED_TO_CLIENT' });
    const feedback = await runCli(['dub', 'feedback', requestId, '--message', 'Timing is a little late in scene 2.'], { env });
    expect(feedback.code).toBe(0);
    const redelivered = await runCli(['dub', 'wait', requestId, '--until', 'REDELIVERED_TO_CLIENT', '--timeout', '60'], { env });
    expect(redelivered.code).toBe(0);
  });

  it('reports validation failures with exit code 5 and usage errors with 2', async () => {
    const invalid = await runCli(['dub', 'submit', '--source-locale', 'en', '--target-locale', 'xx-ZZ', '--video', 'ftp://nope'], { env });
    expect(invalid.code).toBe(5);
    expect(invalid.stderr).toContain('[validation_failed]');
    const usage = await runCli(['dub', 'submit'], { env });
    expect(usage.code).toBe(2);
    const missing = await runCli(['dub', 'status', 'no-such-job'], { env });
    expect(missing.code).toBe(4);
  });

  it('exits 1 with the failure reason when a waited-for job fails', async () => {
    const failed = await runCli(['dub', 'submit', '--source-locale', 'en-US', '--target-locale', 'es-ES', '--video', 's3://media/videos/ep1.mp4', '--wait'], { env });
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain('INTAKE_FAILED');
    expect(failed.stderr).toContain('[job_failed]');
  });
});
