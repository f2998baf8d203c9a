/**
 * Starts `voxpipe serve` in a child process (so load generators do not share its event loop) on a free
 * loopback port with a fresh data directory, and stops it afterwards.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A reference server running in a child process. */
export interface ChildServer {
  url: string;
  apiKey: string;
  process: ChildProcess;
  stop(): Promise<void>;
}

/** The key every benchmark server accepts. */
export const BENCH_API_KEY = 'dd-b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0';

/** Spawns the server with `extraArgs` (e.g. `['--engine','builtin']`) and extra `env`, and resolves once it listens. */
export async function spawnServer(extraArgs: string[] = [], env: Record<string, string> = {}): Promise<ChildServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'voxpipe-bench-'));
  const root = new URL('../../', import.meta.url).pathname;
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'serve', '--port', '0', '--data', dataDir, '--api-key', BENCH_API_KEY, '--log-level', 'warn', ...extraArgs], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, ...env },
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening on (\S+)/.exec(out);
      if (m?.[1]) resolve(m[1]);
    });
    child.once('exit', (code) => reject(new Error(`server exited early (${code}): ${out}`)));
  });
  return {
    url,
    apiKey: BENCH_API_KEY,
    process: child,
    async stop() {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
