import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { validator as srtValidator } from 'srt-validator';
import { WebVTTParser } from 'webvtt-parser';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DubbingClient } from '../../../src/client/dubbing.js';
import { DUBBING_TERMINAL_STATUSES } from '../../../src/protocol/dubbing.js';
import type { Synthesizer } from '../../../src/server/speech/synth/synthesizer.js';
import { localS3Path } from '../../../src/server/dubbing/export-store.js';
import { startTestServer, TEST_API_KEY } from '../../helpers/server.js';
import { automatedJob, readWav, stubDubbingEnv, toneSynthesizer } from './harness.js';
import { mp4File, startMediaServer, type MediaServer } from './media-fixtures.js';

/** Syntheses cut short by the server closing. */
let interrupted = 0;
/** The tone engine, slowed down to 5 ms per 10 ms block so a server can be stopped in the middle of synthesis. */
const slowTone: Synthesizer = {
  name: 'slow-tone',
  async *synthesize(request) {
    for await (const block of toneSynthesizer.synthesize(request)) {
      try {
        await delay(5, undefined, request.signal ? { signal: request.signal } : {});
      } catch (error) {
        interrupted++;
        throw error;
      }
      yield block;
    }
  },
};

describe('dubbing jobs survive a server restart mid-workflow', () => {
  let media: MediaServer;
  let dataDir: string;

  beforeAll(async () => {
    media = await startMediaServer({ '/v/ep.mp4': mp4File(10_000) });
    dataDir = mkdtempSync(join(tmpdir(), 'voxpipe-dubbing-restart-'));
  });
  afterAll(async () => {
    vi.unstubAllEnvs();
    await media.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('is interrupted in the middle of synthesis, resumes on a new server over the same data dir, and completes', async () => {
    stubDubbingEnv(media.url, 0);
    vi.stubEnv('VOXPIPE_DUBBING_PROGRESS_MS', '0');
    const first = await startTestServer({ dataDir });
    first.context.synthesizer = slowTone;
    const client1 = new DubbingClient({ baseUrl: first.url, apiKey: TEST_API_KEY });
    const { requestId } = await client1.create(automatedJob(`${media.url}/v/ep.mp4`, 'restart'));
    const midway = await client1.waitFor(requestId, { until: ['ADAPTGEN_START', 'ADAPTGEN_MIDWAY'], pollIntervalMs: 2 });
    expect(DUBBING_TERMINAL_STATUSES).not.toContain(midway.status);
    await client1.waitFor(requestId, { until: (j) => j.detailedTrace.includes('synthesizing segment'), pollIntervalMs: 2 });
    await first.close(); // aborts the step in flight: nothing of it is committed
    expect(interrupted).toBe(1);

    stubDubbingEnv(media.url, 20);
    const second = await startTestServer({ dataDir });
    try {
      second.context.synthesizer = toneSynthesizer;
      const client2 = new DubbingClient({ baseUrl: second.url, apiKey: TEST_API_KEY });
      const resumed = await client2.get(requestId);
      expect(['ADAPTGEN_START', 'ADAPTGEN_MIDWAY', 'READY_FOR_MIXING', 'MIXING_IN_PROGRESS', 'DELIVERED_TO_CLIENT']).toContain(resumed.status);
      expect(resumed.detailedTrace.startsWith(midway.detailedTrace.split('\n')[0] ?? '-')).toBe(true);

      const done = await client2.waitFor(requestId, { pollIntervalMs: 10, timeoutMs: 20_000 });
      expect(done.status).toBe('DELIVERED_TO_CLIENT');
      expect(done.additionalProducts.every((p) => p.state === 'DELIVERED')).toBe(true);
      // Each step committed exactly once, across both servers.
      const steps = done.detailedTrace.split('\n').map((line) => line.split(' ')[1]);
      for (const status of ['INTAKE_PREPROCESSING:', 'CASTING:', 'MIXING_IN_PROGRESS:']) expect(steps.filter((s) => s === status).length).toBeGreaterThan(0);
      expect(done.detailedTrace.match(/synthesized \d+ segment\(s\)/g)).toHaveLength(2);
      expect(done.detailedTrace).toContain('3/3 ready');
      expect(done.detailedTrace).toMatch(/ADAPTGEN_(START|MIDWAY): synthesizing segment \d of \d in this step/);

      const file = (uri: string): string => localS3Path(dataDir, uri);
      expect(readWav(file(done.exportPath)).samples.length).toBe(10_000 * 48);
      expect(srtValidator(readFileSync(file('s3://dub-out/restart/episode.es-ES.srt'), 'utf8'))).toEqual([]);
      expect(new WebVTTParser().parse(readFileSync(file('s3://dub-out/restart/episode.es-ES.vtt'), 'utf8')).errors).toEqual([]);
      const listed = await client2.list();
      expect(listed.items.map((j) => j.requestId)).toEqual([requestId]);
    } finally {
      await second.close();
    }
  });

  it('survives the server process being killed (SIGKILL) mid-workflow', async () => {
    const crashDir = mkdtempSync(join(tmpdir(), 'voxpipe-dubbing-crash-'));
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'src/cli/main.ts', 'serve', '--port', '0', '--data', crashDir, '--api-key', TEST_API_KEY, '--engine', 'builtin', '--log-level', 'warn'],
      {
        cwd: new URL('../../../', import.meta.url).pathname,
        env: { ...process.env, VOXPIPE_DUBBING_STEP_MS: '150', VOXPIPE_ALLOW_INSECURE_SOURCES: '1', VOXPIPE_S3_ENDPOINT: media.url },
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout.on('data', (d: Buffer) => {
          out += d.toString();
          const m = /listening on (\S+)/.exec(out);
          if (m?.[1]) resolve(m[1]);
        });
        child.once('exit', (code) => reject(new Error(`server exited early (${code})`)));
      });
      const client1 = new DubbingClient({ baseUrl: url, apiKey: TEST_API_KEY });
      const { requestId } = await client1.create(automatedJob(`${media.url}/v/ep.mp4`, 'crash'));
      const before = await client1.waitFor(requestId, { until: ['CASTING', 'ADAPTGEN_START', 'ADAPTGEN_MIDWAY', 'READY_FOR_MIXING'], pollIntervalMs: 5 });
      expect(DUBBING_TERMINAL_STATUSES).not.toContain(before.status);
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;

      stubDubbingEnv(media.url, 0);
      const server = await startTestServer({ dataDir: crashDir });
      try {
        const done = await new DubbingClient({ baseUrl: server.url, apiKey: TEST_API_KEY }).waitFor(requestId, { pollIntervalMs: 5, timeoutMs: 20_000 });
        expect(done.status).toBe('DELIVERED_TO_CLIENT');
        expect(done.detailedTrace.startsWith(before.detailedTrace)).toBe(true); // nothing committed before the crash was lost
        expect(readWav(localS3Path(crashDir, done.exportPath)).samples.length).toBe(10_000 * 48);
      } finally {
        await server.close();
      }
    } finally {
      child.kill('SIGKILL');
      rmSync(crashDir, { recursive: true, force: true });
    }
  });
});
