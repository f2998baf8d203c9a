/** `voxpipe bench NAME`: runs one of the repository's benchmarks (from a source checkout). */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { Command } from '../command.js';
import { UsageError } from '../context.js';

/** Benchmarks and the script that runs each, relative to the repository root. */
export const BENCHMARKS: Record<string, { script: string; summary: string }> = {
  server: { script: 'bench/server/run.ts', summary: 'speech sessions held and first-audio delay added by the reference server' },
  pipeline: { script: 'bench/pipeline/run.ts', summary: 'client pipeline time to first audio vs a bare ws client' },
  audio: { script: 'bench/audio/run.ts', summary: 'transcoding throughput and quality vs npm alternatives' },
  rest: { script: 'bench/rest/run.ts', summary: 'autocannon against the REST endpoints' },
  ttfa: { script: 'bench/ttfa/run.ts', summary: 'time to first audio and to silence under load through the Twilio bridge' },
  dubbing: { script: 'bench/dubbing/run.ts', summary: 'dubbing production: WSOLA fit, mixer, one job end to end' },
  analysis: { script: 'bench/audio-analysis/run.ts', summary: 'audio decoding and pitch tracking cost per audio second' },
  tags: { script: 'bench/tags.ts', summary: 'tag scanner throughput and per-token cost' },
};

const HELP = `Usage: voxpipe bench NAME [ARGS...]

Runs a benchmark from a source checkout (the bench/ folder is not part of the npm package) and prints its
results; bench/README.md records them with their commands.

${Object.entries(BENCHMARKS)
  .map(([name, b]) => `  ${name.padEnd(9)} ${b.summary}`)
  .join('\n')}
`;

/** `voxpipe bench`. */
export const benchCommand: Command = {
  name: 'bench',
  summary: 'Run a benchmark (server, pipeline, audio, rest, ttfa, dubbing, tags, analysis)',
  help: HELP,
  async run(argv) {
    const [name, ...args] = argv;
    if (!name || name === '--help' || name === '-h') {
      process.stdout.write(HELP);
      return name ? 0 : 2;
    }
    const bench = BENCHMARKS[name];
    if (!bench) throw new UsageError(`unknown benchmark '${name}'`);
    const root = new URL('../../../', import.meta.url);
    const script = new URL(bench.script, root).pathname;
    if (!existsSync(script)) throw new UsageError(`${bench.script} is not here: run benchmarks from a source checkout`);
    return new Promise<number>((resolve, reject) => {
      const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], { cwd: root.pathname, stdio: 'inherit' });
      child.on('error', reject);
      child.on('exit', (code) => resolve(code ?? 1));
    });
  },
};
