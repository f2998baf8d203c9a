/**
 * Mixes fitted segment audio into the dubbed dialogue track: a 48 kHz mono 16-bit WAV of exactly the track
 * duration, each segment placed at its start time, overlapping segments summed with clipping. The track is
 * written block by block (1 s) with only the segments overlapping the current block in memory, to a temporary
 * file renamed into place when complete.
 */
import { closeSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { dirname, join } from 'node:path';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { encodeWavHeader, writeS16le } from '../../audio/wav.js';
import { AbortError } from '../../errors.js';
import { SYNTH_SAMPLE_RATE } from '../speech/synth/synthesizer.js';

/** A segment to place: its start sample and the file of its fitted 16-bit PCM. */
export interface PlacedSegment {
  startSample: number;
  pcmPath: string;
}

const BLOCK = SYNTH_SAMPLE_RATE;

function loadPcm(path: string): Int16Array {
  const bytes = readFileSync(path);
  const copy = new Uint8Array(bytes.length - (bytes.length % 2));
  copy.set(bytes.subarray(0, copy.length));
  return new Int16Array(copy.buffer);
}

/** Writes the mixed track of `totalSamples` samples to `outPath`. */
export async function mixTrack(segments: readonly PlacedSegment[], totalSamples: number, outPath: string, signal?: AbortSignal): Promise<void> {
  const order = [...segments].sort((a, b) => a.startSample - b.startSample);
  mkdirSync(dirname(outPath), { recursive: true });
  const tmp = join(dirname(outPath), `.${randomUUID()}.tmp`);
  const fd = openSync(tmp, 'w');
  try {
    writeSync(fd, encodeWavHeader(totalSamples * 2, SYNTH_SAMPLE_RATE));
    const active: Array<{ start: number; pcm: Int16Array }> = [];
    let nextSegment = 0;
    const sum = new Int32Array(BLOCK);
    const out = new Int16Array(BLOCK);
    const bytes = new Uint8Array(BLOCK * 2);
    for (let blockStart = 0, blocks = 0; blockStart < totalSamples; blockStart += BLOCK, blocks++) {
      if (signal?.aborted) throw new AbortError();
      const length = Math.min(BLOCK, totalSamples - blockStart);
      const blockEnd = blockStart + length;
      while (nextSegment < order.length && (order[nextSegment]?.startSample ?? Infinity) < blockEnd) {
        const seg = order[nextSegment++];
        if (seg) active.push({ start: seg.startSample, pcm: loadPcm(seg.pcmPath) });
      }
      sum.fill(0);
      for (const seg of active) {
        const from = Math.max(blockStart, seg.start);
        const to = Math.min(blockEnd, seg.start + seg.pcm.length);
        for (let t = from; t < to; t++) sum[t - blockStart] = (sum[t - blockStart] ?? 0) + (seg.pcm[t - seg.start] ?? 0);
      }
      for (let i = 0; i < length; i++) out[i] = Math.max(-32768, Math.min(32767, sum[i] ?? 0));
      writeS16le(out.subarray(0, length), bytes);
      writeSync(fd, bytes, 0, length * 2);
      for (let i = active.length - 1; i >= 0; i--) {
        const seg = active[i];
        if (seg && seg.start + seg.pcm.length <= blockEnd) active.splice(i, 1);
      }
      if (blocks % 16 === 15) await yieldToLoop();
    }
    closeSync(fd);
    renameSync(tmp, outPath);
  } catch (error) {
    try {
      closeSync(fd);
    } catch {
      // already closed
    }
    rmSync(tmp, { force: true });
    throw error;
  }
}
