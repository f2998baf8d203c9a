/** Shared setup of the dubbing e2e tests: env for the area, server stack, tone synthesizer, WAV reading, job requests. */
import { readFileSync } from 'node:fs';
import { vi } from 'vitest';
import { DubbingClient } from '../../../src/client/dubbing.js';
import type { RunningServer } from '../../../src/server/app.js';
import { startTestServer, TEST_API_KEY } from '../../helpers/server.js';
import { startMediaServer, type MediaServer } from './media-fixtures.js';
import { parseWavHeader, WAVE_FORMAT_PCM } from '../../../src/audio/wav.js';
import type { DubbingJobRequest, DubbingSegment } from '../../../src/protocol/dubbing.js';
import type { Synthesizer } from '../../../src/server/speech/synth/synthesizer.js';

/** Points the dubbing area at a loopback media server and sets the step pause (read when a server starts). */
export function stubDubbingEnv(mediaUrl: string, stepMs: number): void {
  vi.stubEnv('VOXPIPE_DUBBING_STEP_MS', String(stepMs));
  vi.stubEnv('VOXPIPE_ALLOW_INSECURE_SOURCES', '1');
  vi.stubEnv('VOXPIPE_S3_ENDPOINT', mediaUrl);
}

/** A loopback media origin, a test server whose dubbing area uses it, and a client of that server. */
export interface DubbingStack {
  media: MediaServer;
  server: RunningServer;
  client: DubbingClient;
  /** Stops the server and the origin and restores the environment. */
  close(): Promise<void>;
}

/** Starts a {@link DubbingStack}: `files` (and `redirects`) on the origin, `stepMs` pause, extra `env` for the area. */
export async function startDubbingStack(
  files: Record<string, Buffer>,
  options: { redirects?: Record<string, string>; stepMs?: number; env?: Record<string, string> } = {},
): Promise<DubbingStack> {
  const media = await startMediaServer(files, options.redirects);
  stubDubbingEnv(media.url, options.stepMs ?? 0);
  for (const [name, value] of Object.entries(options.env ?? {})) vi.stubEnv(name, value);
  const server = await startTestServer();
  return {
    media,
    server,
    client: new DubbingClient({ baseUrl: server.url, apiKey: TEST_API_KEY }),
    async close() {
      vi.unstubAllEnvs();
      await server.close();
      await media.close();
    },
  };
}

/** A synthesizer yielding a 440 Hz tone of 60 ms per character, in 10 ms blocks (long lines overflow their slot). */
export const toneSynthesizer: Synthesizer = {
  name: 'tone',
  async *synthesize(request) {
    const samples = request.text.length * 60 * 48;
    for (let at = 0; at < samples; at += 480) {
      const block = new Int16Array(Math.min(480, samples - at));
      for (let i = 0; i < block.length; i++) block[i] = Math.round(8000 * Math.sin((2 * Math.PI * 440 * (at + i)) / 48_000));
      yield block;
    }
  },
};

/** A parsed 16-bit PCM WAV file. */
export interface Wav {
  sampleRate: number;
  channels: number;
  bitsPerSample: number;
  samples: Int16Array;
}

/** Reads a PCM WAV file, checking that its RIFF and data sizes match the file. */
export function readWav(path: string): Wav {
  const bytes = readFileSync(path);
  const header = parseWavHeader(bytes);
  if (bytes.readUInt32LE(4) !== bytes.length - 8) throw new Error('RIFF size does not match the file');
  if (header.formatTag !== WAVE_FORMAT_PCM || header.dataOffset + (header.dataBytes ?? -1) !== bytes.length) throw new Error('not a complete PCM WAV file');
  const copy = new Uint8Array(bytes.subarray(header.dataOffset));
  return { sampleRate: header.sampleRate, channels: header.channels, bitsPerSample: header.bitsPerSample, samples: new Int16Array(copy.buffer) };
}

/** Three segments of two characters inside a 10 s video; the second line is too long for its slot. */
export const SEGMENTS: DubbingSegment[] = [
  { segmentId: 'seg_001', timestampStart: 500, timestampEnd: 2500, characterId: 'char_001', characterName: 'John', sourceDialogue: 'Hello there.', targetDialogue: 'Hola.' },
  {
    segmentId: 'seg_002',
    timestampStart: 3000,
    timestampEnd: 4000,
    characterId: 'char_002',
    characterName: 'Mary',
    sourceDialogue: 'How are you doing today, my friend?',
    targetDialogue: '¿Cómo estás hoy, amigo mío?',
  },
  { segmentId: 'seg_003', timestampStart: 6000, timestampEnd: 9000, characterId: 'char_001', characterName: 'John', sourceDialogue: 'Fine, thanks.\nAnd you?', targetDialogue: 'Bien, gracias.\n¿Y tú?' },
];

/** An AUTOMATED job over `sourceVideoPath` with {@link SEGMENTS} and text products under s3://dub-out/`name`. */
export function automatedJob(sourceVideoPath: string, name: string): DubbingJobRequest {
  return {
    sourceLocale: 'en-US',
    targetLocale: 'es-ES',
    sourceVideoPath,
    exportPath: `s3://dub-out/${name}/episode.es-ES.mp4`,
    workflowType: 'AUTOMATED',
    titleName: 'The Great Adventure',
    segments: SEGMENTS,
    metadata: { episode: '1' },
    additionalProducts: [
      { product: 'SRT', assetPath: `s3://dub-out/${name}/episode.es-ES.srt` },
      { product: 'WEBVTT', assetPath: `s3://dub-out/${name}/episode.es-ES.vtt` },
      { product: 'TRANSCRIPT', assetPath: `s3://dub-out/${name}/episode.es-ES.txt` },
      { product: 'SDH', assetPath: `s3://dub-out/${name}/episode.es-ES.sdh.srt` },
    ],
  };
}
