import { pipeline } from 'node:stream/promises';
import { Readable, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createAudioEncoder } from '../../../src/audio/encoder.js';
import { decodeMulaw, encodeMulaw } from '../../../src/audio/mulaw.js';
import { toNodeStream } from '../../../src/audio/node-streams.js';
import type { PcmChunk } from '../../../src/audio/pcm.js';
import { createResampler } from '../../../src/audio/resampler.js';
import {
  downmix,
  encode,
  frame,
  mulawToPcm,
  pcmToMulaw,
  pcmToS16le,
  pcmToWav,
  pipe,
  resample,
  s16leToPcm,
  wavToPcm,
} from '../../../src/audio/transforms.js';
import { parseWavHeader } from '../../../src/audio/wav.js';
import { collect, concatInt16, fromItems as from, tone } from './signals.js';

const SPEECH = tone(440, 48000, 48000 + 123, 10000);

function hostedWav(rate: number, pcm = SPEECH): Buffer[] {
  const encoder = createAudioEncoder({ format: 'wav', sampleRate: rate });
  const chunks: Buffer[] = [];
  for (let i = 0; i < pcm.length; i += 4800) chunks.push(...encoder.encode(pcm.subarray(i, i + 4800)));
  return [...chunks, ...encoder.flush()];
}

describe('Twilio path: 48 kHz WAV chunks → 8 kHz mu-law 160-byte frames', () => {
  it('gives full frames of exactly the resampled mu-law, byte-at-a-time input included', async () => {
    const resampler = createResampler(48000, 8000);
    const expected = encodeMulaw(concatInt16([resampler.process(SPEECH), resampler.flush()]));
    const bytes = Buffer.concat(hostedWav(48000));
    const byteAtATime: Uint8Array[] = [...Array.from(bytes.subarray(0, 5000), (b) => Uint8Array.of(b)), bytes.subarray(5000)];
    for (const blocks of [hostedWav(48000), byteAtATime] as Uint8Array[][]) {
      const frames = await collect(pipe(from(blocks), wavToPcm(), resample(8000), pcmToMulaw(), frame(160, { pad: 0xff })));
      expect(frames.every((f) => f.length === 160)).toBe(true);
      expect(frames.length).toBe(Math.ceil(expected.length / 160));
      const joined = Buffer.concat(frames);
      expect(new Uint8Array(joined.subarray(0, expected.length))).toEqual(expected);
      expect(joined.subarray(expected.length).every((b) => b === 0xff)).toBe(true);
    }
  });
});

describe('transforms', () => {
  it('s16leToPcm carries a sample split across blocks and refuses a stream ending mid-sample', async () => {
    const bytes = Buffer.from(Int16Array.of(1, -2, 300, -32768).buffer);
    const blocks = [bytes.subarray(0, 3), bytes.subarray(3, 4), bytes.subarray(4, 7), bytes.subarray(7)];
    const out = await collect(pipe(from(blocks), s16leToPcm(16000)));
    expect(Array.from(concatInt16(out.map((c) => c.samples)))).toEqual([1, -2, 300, -32768]);
    expect(out.every((c) => c.sampleRate === 16000)).toBe(true);
    await expect(collect(pipe(from([bytes.subarray(0, 3)]), s16leToPcm(16000)))).rejects.toThrow(/inside a sample/);
  });

  it('pcmToS16le and mulawToPcm invert their counterparts', async () => {
    const samples = Int16Array.of(0, 1000, -1000, 32767);
    const [bytes] = await collect(pipe(from([{ samples, sampleRate: 8000, channels: 1 }]), pcmToS16le()));
    expect(Array.from(new Int16Array(Uint8Array.from(bytes as Uint8Array).buffer))).toEqual(Array.from(samples));
    const [pcm] = await collect(pipe(from([encodeMulaw(samples)]), mulawToPcm()));
    expect(pcm?.samples).toEqual(decodeMulaw(encodeMulaw(samples)));
  });

  it('frame carries the remainder and yields, pads or drops the last partial frame', async () => {
    const blocks = [Uint8Array.of(1, 2, 3), Uint8Array.of(4), Uint8Array.of(5, 6, 7, 8, 9)];
    expect((await collect(pipe(from(blocks), frame(4)))).map((f) => Array.from(f))).toEqual([
      [1, 2, 3, 4],
      [5, 6, 7, 8],
      [9],
    ]);
    expect((await collect(pipe(from(blocks), frame(4, { pad: 0xff })))).map((f) => Array.from(f))[2]).toEqual([9, 0xff, 0xff, 0xff]);
    expect(await collect(pipe(from(blocks), frame(4, { dropPartial: true })))).toHaveLength(2);
  });

  it('resample restarts on a rate change and keeps the total length', async () => {
    const chunks: PcmChunk[] = [
      { samples: tone(300, 16000, 1600), sampleRate: 16000, channels: 1 },
      { samples: tone(300, 24000, 2400), sampleRate: 24000, channels: 1 },
    ];
    const out = await collect(pipe(from(chunks), resample(8000)));
    expect(out.every((c) => c.sampleRate === 8000)).toBe(true);
    expect(out.reduce((n, c) => n + c.samples.length, 0)).toBe(1600);
  });

  it('downmix averages interleaved channels', async () => {
    const [mono] = await collect(pipe(from([{ samples: Int16Array.of(100, 300, -5, -6), sampleRate: 8000, channels: 2 }]), downmix()));
    expect(mono).toEqual({ samples: Int16Array.of(200, -5), sampleRate: 8000, channels: 1 }); // -5.5 rounds up
  });

  it('pcmToWav writes one streaming header then samples, and refuses a format change', async () => {
    const chunks = [
      { samples: Int16Array.of(1, 2), sampleRate: 22050, channels: 1 },
      { samples: Int16Array.of(3), sampleRate: 22050, channels: 1 },
    ];
    const out = await collect(pipe(from(chunks), pcmToWav()));
    const file = Buffer.concat(out);
    expect(parseWavHeader(file)).toMatchObject({ sampleRate: 22050, dataOffset: 44, dataBytes: undefined });
    expect(Array.from(new Int16Array(Uint8Array.from(file.subarray(44)).buffer))).toEqual([1, 2, 3]);
    await expect(collect(pipe(from([...chunks, { samples: Int16Array.of(1), sampleRate: 8000, channels: 1 }]), pcmToWav()))).rejects.toThrow(/changed/);
  });

  it('encode runs the server encoders on PCM of any rate', async () => {
    const out = await collect(pipe(from([{ samples: tone(440, 16000, 16000), sampleRate: 16000, channels: 1 }]), encode('mulaw', 8000)));
    expect(Buffer.concat(out).length).toBe(8000);
  });

  it('stops pulling from the source when the consumer breaks out', async () => {
    let pulled = 0;
    let closed = false;
    async function* endless(): AsyncIterable<Uint8Array> {
      try {
        for (;;) {
          pulled++;
          yield new Uint8Array(100);
        }
      } finally {
        closed = true;
      }
    }
    for await (const f of pipe(endless(), frame(160))) {
      expect(f.length).toBe(160);
      break;
    }
    expect(closed).toBe(true);
    expect(pulled).toBeLessThanOrEqual(3);
  });
});

describe('toNodeStream', () => {
  it.each([
    ['paused at a yield', 0],
    ['waiting for input', 20],
  ])('stops the transform when destroyed while it is %s', async (_state, delayMs) => {
    let closed = false;
    const duplex = toNodeStream(async function* (source: AsyncIterable<Uint8Array>) {
      try {
        for await (const bytes of source) yield bytes;
      } finally {
        closed = true;
      }
    });
    duplex.write(Uint8Array.of(1));
    await new Promise((resolve) => duplex.once('data', resolve));
    await new Promise((resolve) => setTimeout(resolve, delayMs));
    const gone = new Promise((resolve) => duplex.once('close', resolve));
    duplex.destroy();
    await gone;
    await new Promise((resolve) => setImmediate(resolve));
    expect(closed).toBe(true);
  });

  it('takes one input at a time (the write callback waits for the transform) and reports its errors', async () => {
    const taken: number[] = [];
    const duplex = toNodeStream(async function* (source: AsyncIterable<number>) {
      for await (const n of source) {
        if (n === 3) throw new Error('bad input');
        yield n;
      }
    });
    const failed = new Promise<Error>((resolve) => duplex.once('error', resolve));
    duplex.write(1, () => taken.push(1));
    duplex.write(2, () => taken.push(2));
    await new Promise((resolve) => setImmediate(resolve));
    expect(taken).toEqual([]); // pull-driven: nothing runs before someone reads
    expect(duplex.read()).toBeNull();
    await new Promise((resolve) => setImmediate(resolve));
    expect(taken).toEqual([1]); // the second waits until the reader makes room
    expect(duplex.read()).toBe(1);
    await new Promise((resolve) => setImmediate(resolve));
    expect(taken).toEqual([1, 2]);
    duplex.resume();
    duplex.write(3);
    expect((await failed).message).toBe('bad input');
  });

  it('runs a transform chain inside stream.pipeline', async () => {
    const received: Buffer[] = [];
    await pipeline(
      Readable.from(hostedWav(8000, tone(440, 48000, 4800))),
      toNodeStream((source: AsyncIterable<Uint8Array>) => pipe(source, wavToPcm(), pcmToMulaw(), frame(160))),
      new Writable({
        objectMode: true,
        write(chunk: Buffer, _encoding, callback) {
          received.push(chunk);
          callback();
        },
      }),
    );
    expect(received.map((f) => f.length)).toEqual([160, 160, 160, 160, 160]);
  });
});
