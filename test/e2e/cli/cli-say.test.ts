import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseWavHeader } from '../../../src/audio/wav.js';
import type { RunningServer } from '../../../src/server/app.js';
import { runCli } from '../../helpers/cli.js';
import { startTestServer, TEST_API_KEY } from '../../helpers/server.js';

describe('voxpipe say', () => {
  let server: RunningServer;
  let dir: string;
  let env: Record<string, string>;
  beforeAll(async () => {
    server = await startTestServer();
    env = { VOXPIPE_URL: server.url, VOXPIPE_API_KEY: TEST_API_KEY };
    dir = mkdtempSync(join(tmpdir(), 'voxpipe-say-'));
  });
  afterAll(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('writes one WAV file with one header and prints the latency', async () => {
    const out = join(dir, 'hello.wav');
    const r = await runCli(['say', 'Hello [happy] world. Second sentence.', '--out', out, '--rate', '24000', '--no-realtime'], { env });
    expect(r.stderr).toMatch(/time to first audio \d+\.\d ms/);
    expect(r.code).toBe(0);
    const bytes = readFileSync(out);
    const h = parseWavHeader(bytes);
    expect(h.sampleRate).toBe(24000);
    expect(h.dataBytes).toBe(bytes.length - h.dataOffset);
    expect(bytes.indexOf('RIFF', 4)).toBe(-1);
    expect(bytes.length - h.dataOffset).toBeGreaterThan(24000 * 2); // over a second of speech
  });

  it('streams standard input as tokens, to mu-law on stdout', async () => {
    const r = await runCli(['say', '--format', 'mulaw', '--out', '-', '--no-realtime', '--json'], { env, stdin: 'Streaming from standard input, one line.\nAnd another line.\n' });
    expect(r.code).toBe(0);
    expect(r.stdout.length).toBeGreaterThan(8000);
    expect(JSON.parse(r.stderr)).toMatchObject({ out: '-', outcome: 'final', generationCount: 2 });
  });

  it('exits 2 on an unknown format', async () => {
    const r = await runCli(['say', 'x', '--format', 'flac'], { env });
    expect(r.code).toBe(2);
  });
});
