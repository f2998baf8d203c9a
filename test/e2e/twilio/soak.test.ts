/**
 * Long-call soak (bench/soak/run.ts in a child process under --expose-gc): 600 caller turns, 900 bot turns
 * with 300 barge-ins, nothing paced. Memory must not grow per turn: the heap after GC over the second half
 * of the call grows by less than 1 KiB per turn (measured: 60-360 B/turn, flattening; a leaked Turn, chunk
 * queue or call-sized buffer per turn is several KiB).
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);

describe('Twilio bridge soak', () => {
  it('keeps the heap flat over hundreds of turns with barge-ins', async () => {
    const root = new URL('../../../', import.meta.url).pathname;
    const { stdout } = await run(process.execPath, ['--expose-gc', '--import', 'tsx', 'bench/soak/run.ts', '--turns', '600', '--every', '20', '--json'], { cwd: root, timeout: 120_000 });
    const result = JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as { outcomes: Record<string, number>; botTurns: number; lateSlopeBytesPerTurn: number; samples: unknown[] };
    expect(result.outcomes).toEqual({ played: 600, interrupted: 300, failed: 0 });
    expect(result.botTurns).toBe(900);
    expect(result.samples).toHaveLength(30);
    expect(result.lateSlopeBytesPerTurn).toBeLessThan(1024);
  }, 150_000);
});
