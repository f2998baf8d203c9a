/** Runs the `voxpipe` command in a child process (through tsx) and collects its output and exit code. */
import { spawn } from 'node:child_process';

/** Result of {@link runCli}. */
export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

const ROOT = new URL('../../', import.meta.url).pathname;

/** Runs `voxpipe ...args` with `env` added to the environment; `stdin` is written and closed when given. */
export function runCli(args: string[], options: { env?: Record<string, string>; stdin?: string } = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args], {
      cwd: ROOT,
      env: { ...process.env, VOXPIPE_URL: '', VOXPIPE_API_KEY: '', ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
    child.stdin.end(options.stdin ?? '');
  });
}
