import { existsSync, readFileSync } from 'node:fs';
import { validator as srtValidator } from 'srt-validator';
import { WebVTTParser } from 'webvtt-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DubbingClient, DubbingJobFailedError } from '../../../src/client/dubbing.js';
import type { DubbingJobStatusName } from '../../../src/protocol/dubbing.js';
import type { RunningServer } from '../../../src/server/app.js';
import type { Synthesizer } from '../../../src/server/speech/synth/synthesizer.js';
import { advanceDubbingJob, dubbingJobsAwaitingReview } from '../../../src/server/dubbing/admin.js';
import { localS3Path } from '../../../src/server/dubbing/export-store.js';
import { automatedJob, readWav, SEGMENTS, startDubbingStack, toneSynthesizer, type DubbingStack } from './harness.js';
import { mp4File, mpegTsHead, type MediaServer } from './media-fixtures.js';

const VIDEO_MS = 10_000;

describe('dubbing workflow (AUTOMATED and MANAGED) over HTTP', () => {
  let stack: DubbingStack;
  let media: MediaServer;
  let server: RunningServer;
  let client: DubbingClient;
  let builtin: Synthesizer;
  const file = (uri: string): string => localS3Path(server.context.dataDir, uri);

  beforeAll(async () => {
    stack = await startDubbingStack({
      '/videos/ep1.mp4': mp4File(VIDEO_MS),
      '/src-bucket/late-moov.mp4': mp4File(VIDEO_MS, { moovAtEnd: true, mdatBytes: 300_000 }),
      '/videos/ep1.ts': mpegTsHead(),
    });
    ({ media, server, client } = stack);
    builtin = server.context.synthesizer;
    server.context.synthesizer = toneSynthesizer;
  });
  afterAll(() => stack.close());

  it('delivers an AUTOMATED job: dubbed track fitted to the segments, SRT/WebVTT/transcript that validate', async () => {
    const { requestId } = await client.create(automatedJob(`${media.url}/videos/ep1.mp4`, 'auto'));
    const seen: DubbingJobStatusName[] = [];
    const job = await client.waitFor(requestId, { pollIntervalMs: 5, onProgress: (p) => seen.push(p.job.status) });

    expect(job.status).toBe('DELIVERED_TO_CLIENT');
    expect(seen.at(-1)).toBe('DELIVERED_TO_CLIENT');
    expect(job.exportPath).toBe('s3://dub-out/auto/episode.es-ES.wav');
    expect(job.metadata).toEqual({ episode: '1' });
    expect(job.additionalProducts.map((p) => p.state)).toEqual(['DELIVERED', 'DELIVERED', 'DELIVERED', 'DELIVERED']);
    for (const status of ['INTAKE_PREPROCESSING', 'INTAKE_VALIDATION', 'INTAKE_APPROVED', 'CASTING', 'ADAPTGEN_START', 'ADAPTGEN_MIDWAY', 'READY_FOR_MIXING', 'MIXING_IN_PROGRESS', 'DELIVERED_TO_CLIENT']) {
      expect(job.detailedTrace).toContain(` ${status}: `);
    }
    expect(job.detailedTrace).toMatch(/trimmed to fit/);

    // The dubbed track: 48 kHz mono 16-bit, exactly the video's duration, speech only inside the segments' slots.
    const wav = readWav(file(job.exportPath));
    expect([wav.sampleRate, wav.channels, wav.bitsPerSample]).toEqual([48_000, 1, 16]);
    expect(wav.samples.length).toBe((VIDEO_MS * 48_000) / 1000);
    const inSlot = (i: number): boolean => SEGMENTS.some((s) => i >= s.timestampStart * 48 && i < s.timestampEnd * 48);
    let outside = 0;
    for (let i = 0; i < wav.samples.length; i++) if (!inSlot(i) && wav.samples[i] !== 0) outside++;
    expect(outside).toBe(0);
    const energy = (fromMs: number, toMs: number): number => {
      let sum = 0;
      for (let i = fromMs * 48; i < toMs * 48; i++) sum += Math.abs(wav.samples[i] ?? 0);
      return sum / ((toMs - fromMs) * 48);
    };
    expect(energy(500, 800)).toBeGreaterThan(1000); // "Hola." = 300 ms of tone from the slot start
    expect(energy(810, 2500)).toBe(0); // then silence to the end of the slot
    expect(energy(3000, 4000)).toBeGreaterThan(1000); // the long line fills its whole 1 s slot (sped up, then trimmed)

    const srt = readFileSync(file('s3://dub-out/auto/episode.es-ES.srt'), 'utf8');
    expect(srtValidator(srt)).toEqual([]);
    expect(srt.split('\n\n').filter(Boolean)).toHaveLength(3);
    expect(srt).toContain('00:00:03,000 --> 00:00:04,000\n¿Cómo estás hoy, amigo mío?');

    const vtt = new WebVTTParser().parse(readFileSync(file('s3://dub-out/auto/episode.es-ES.vtt'), 'utf8'), 'subtitles/captions/descriptions');
    expect(vtt.errors).toEqual([]);
    expect(vtt.cues.map((c) => [c.id, c.startTime, c.endTime])).toEqual(SEGMENTS.map((s) => [s.segmentId, s.timestampStart / 1000, s.timestampEnd / 1000]));
    expect(vtt.cues[2]?.text).toBe('<v John>Bien, gracias.\n¿Y tú?');

    const sdh = readFileSync(file('s3://dub-out/auto/episode.es-ES.sdh.srt'), 'utf8');
    expect(srtValidator(sdh)).toEqual([]);
    expect(sdh).toContain('[Mary] ¿Cómo estás hoy, amigo mío?');
    expect(readFileSync(file('s3://dub-out/auto/episode.es-ES.txt'), 'utf8')).toContain('[00:00:00.500 - 00:00:02.500] John: Hola.');
  });

  it('dubs with the server engine: speech inside every slot, silence elsewhere', async () => {
    server.context.synthesizer = builtin;
    try {
      const { requestId } = await client.create(automatedJob(`${media.url}/videos/ep1.mp4`, 'engine'));
      const job = await client.waitFor(requestId, { pollIntervalMs: 5 });
      expect(job.detailedTrace).toContain(`with ${builtin.name}:`);
      const { samples } = readWav(file(job.exportPath));
      expect(samples.length).toBe(VIDEO_MS * 48);
      for (const s of SEGMENTS) {
        let peak = 0;
        for (let i = s.timestampStart * 48; i < s.timestampEnd * 48; i++) peak = Math.max(peak, Math.abs(samples[i] ?? 0));
        expect(peak, s.segmentId).toBeGreaterThan(1000);
      }
      const inSlot = (i: number): boolean => SEGMENTS.some((s) => i >= s.timestampStart * 48 && i < s.timestampEnd * 48);
      expect(samples.findIndex((v, i) => v !== 0 && !inSlot(i))).toBe(-1);
    } finally {
      server.context.synthesizer = toneSynthesizer;
    }
  });

  it('re-delivers after feedback: affected segments resynthesized, new export path and products delivered', async () => {
    const { requestId } = await client.create(automatedJob(`${media.url}/videos/ep1.mp4`, 'refix'));
    await client.waitFor(requestId, { pollIntervalMs: 5 });
    const before = readFileSync(file('s3://dub-out/refix/episode.es-ES.wav'));

    await expect(
      client.feedback(requestId, {
        generalFeedback: 'Second line is rushed.',
        exportPath: 's3://dub-out/refix/episode.es-ES.r1.mp4',
        issues: [{ timestampStart: 3100, timestampEnd: 3500, category: 'TIMING', severity: 'MAJOR', label: 'TIMING_LIPSYNC', details: 'Too fast.', timestamp: '2026-01-01T10:00:00Z' }],
        additionalProducts: [{ product: 'ITT_SUBTITLES', assetPath: 's3://dub-out/refix/episode.es-ES.itt' }],
      }),
    ).resolves.toEqual({ requestId });
    const job = await client.waitFor(requestId, { until: 'REDELIVERED_TO_CLIENT', pollIntervalMs: 5 });
    expect(job.exportPath).toBe('s3://dub-out/refix/episode.es-ES.r1.wav');
    expect(job.additionalProducts.map((p) => p.state)).toEqual(Array(5).fill('DELIVERED'));
    expect(job.additionalProducts.at(-1)).toEqual({ product: 'ITT_SUBTITLES', assetPath: 's3://dub-out/refix/episode.es-ES.itt', state: 'DELIVERED' });
    expect(job.detailedTrace).toContain('resynthesizing 1 segment(s): seg_002');
    for (const status of ['CLIENT_REFIX_PROCESSING', 'CLIENT_REFIX', 'READY_FOR_REDMX', 'REDMX_DONE', 'REDELIVERED_TO_CLIENT']) expect(job.detailedTrace).toContain(` ${status}: `);
    expect(readFileSync(file('s3://dub-out/refix/episode.es-ES.r1.wav')).equals(before)).toBe(true); // deterministic resynthesis
    expect(readFileSync(file('s3://dub-out/refix/episode.es-ES.itt'), 'utf8')).toContain('<p begin="00:00:03.000" end="00:00:04.000">¿Cómo estás hoy, amigo mío?</p>');
  });

  it('reads the duration of an s3:// MP4 whose moov follows the media data (ranged reads through the S3 endpoint)', async () => {
    const request = { ...automatedJob('s3://src-bucket/late-moov.mp4', 's3src'), segments: [...SEGMENTS, { ...SEGMENTS[0]!, segmentId: 'late', timestampStart: 9500, timestampEnd: 10_500 }] };
    const rejected = await client.create(request).catch((e: unknown) => e);
    expect(rejected).toMatchObject({ code: 'validation_failed', details: [{ loc: ['body', 'segments', 3, 'timestampEnd'], type: 'value_error' }] });
    expect(media.ranges.some((r) => r !== 'bytes=0-65535')).toBe(true);

    const { requestId } = await client.create(automatedJob('s3://src-bucket/late-moov.mp4', 's3src'));
    await client.waitFor(requestId, { pollIntervalMs: 5 });
    expect(readWav(file('s3://dub-out/s3src/episode.es-ES.wav')).samples.length).toBe(VIDEO_MS * 48);
  });

  it('parks MANAGED jobs for review until advanced (admin endpoint and admin function), rejections loop back', async () => {
    const { requestId } = await client.create({ ...automatedJob(`${media.url}/videos/ep1.mp4`, 'managed'), workflowType: 'MANAGED' });
    const parked = async (status: DubbingJobStatusName): Promise<void> => {
      await client.waitFor(requestId, { until: status, pollIntervalMs: 5 });
    };
    await parked('READY_FOR_QC');
    expect(dubbingJobsAwaitingReview(server.context.db)).toContainEqual({ requestId, accountId: 'dev', workflowType: 'MANAGED', status: 'READY_FOR_QC' });
    await expect(client.advance(requestId)).resolves.toEqual({ requestId, status: 'READY_FOR_QC', decision: 'approve', next: 'QC_IN_REVIEW' });
    await parked('QC_IN_REVIEW');
    await expect(client.advance(requestId, 'reject')).resolves.toMatchObject({ next: 'ADAPTGEN_QC_FIX' });
    await parked('READY_FOR_QC');
    await client.advance(requestId);
    await parked('QC_IN_REVIEW');
    await client.advance(requestId);
    await parked('READY_FOR_MIX_QC');
    expect((await client.get(requestId)).additionalProducts.every((p) => p.state === 'PENDING_DELIVERY')).toBe(true);
    expect(advanceDubbingJob(server.context.db, requestId)).toMatchObject({ status: 'READY_FOR_MIX_QC', next: 'MIX_QC_IN_PROGRESS' });
    await parked('MIX_QC_IN_PROGRESS'); // the runner's sweep picks up a decision made outside the server
    await client.advance(requestId);
    const job = await client.waitFor(requestId, { pollIntervalMs: 5 });
    expect(job.status).toBe('DELIVERED_TO_CLIENT');
    expect(job.detailedTrace).toContain('QC rejected: resynthesizing every segment');
    expect(existsSync(file(job.exportPath))).toBe(true);
    await expect(client.advance(requestId)).rejects.toMatchObject({ code: 'conflict', status: 409 });

    // Feedback on a MANAGED job waits for review with every product back to PENDING_DELIVERY.
    const feedback = { generalFeedback: 'Accent is off.', issues: [] };
    await client.feedback(requestId, feedback);
    await parked('CLIENT_REFIX_PROCESSING');
    expect((await client.get(requestId)).additionalProducts.map((p) => p.state)).toEqual(Array(4).fill('PENDING_DELIVERY'));
    await client.advance(requestId, 'reject');
    const rejected = await client.waitFor(requestId, { until: 'CLIENT_REFIX_REJECTED', pollIntervalMs: 5 });
    expect(rejected.additionalProducts.map((p) => p.state)).toEqual(Array(4).fill('DELIVERED')); // the last delivery stands
    await client.feedback(requestId, { ...feedback, revisionNumber: 5 });
    await parked('CLIENT_REFIX_PROCESSING');
    await client.advance(requestId);
    const redelivered = await client.waitFor(requestId, { until: 'REDELIVERED_TO_CLIENT', pollIntervalMs: 5 });
    expect(redelivered.additionalProducts.map((p) => p.state)).toEqual(Array(4).fill('DELIVERED'));
    expect(redelivered.detailedTrace).toContain('revision 5: 0 issue(s) reported; resynthesizing 3 segment(s)');
  });

  it('sizes the track to the last segment when the container states no duration (MPEG-TS)', async () => {
    const { requestId } = await client.create(automatedJob(`${media.url}/videos/ep1.ts`, 'ts'));
    const job = await client.waitFor(requestId, { pollIntervalMs: 5 });
    expect(job.detailedTrace).toContain('source video: mpeg-ts, duration not stated in the container head');
    expect(readWav(file(job.exportPath)).samples.length).toBe(9000 * 48); // seg_003 ends at 9 s
  });

  it('takes MANAGED_HIGH_TIER jobs through the DMX stage and every review', async () => {
    const { requestId } = await client.create({ ...automatedJob(`${media.url}/videos/ep1.mp4`, 'high'), workflowType: 'MANAGED_HIGH_TIER', sourceMAndETrackPath: 's3://src/me.wav' });
    const reviewed: string[] = [];
    for (;;) {
      const job = await client.waitFor(requestId, { until: ['READY_FOR_QC', 'QC_IN_REVIEW', 'READY_FOR_MIX_QC', 'MIX_QC_IN_PROGRESS', 'DELIVERED_TO_CLIENT'], pollIntervalMs: 5 });
      if (job.status === 'DELIVERED_TO_CLIENT') break;
      reviewed.push((await client.advance(requestId)).status);
    }
    expect(reviewed).toEqual(['READY_FOR_QC', 'QC_IN_REVIEW', 'READY_FOR_MIX_QC', 'MIX_QC_IN_PROGRESS']);
    const trace = (await client.get(requestId)).detailedTrace;
    expect(trace).toContain('READY_FOR_DMX: music-and-effects stem: s3://src/me.wav');
    expect(trace).toContain('DMX_DONE: done → CASTING');
  });

  it('fails the job with the reason when a step throws (synthesizer error)', async () => {
    const engine = server.context.synthesizer;
    server.context.synthesizer = {
      name: 'broken',
      async *synthesize() {
        throw new Error('engine exploded');
      },
    };
    try {
      const { requestId } = await client.create(automatedJob(`${media.url}/videos/ep1.mp4`, 'broken'));
      const error = await client.waitFor(requestId, { pollIntervalMs: 5 }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(DubbingJobFailedError);
      expect((error as DubbingJobFailedError).job.status).toBe('FAILURE');
      expect((error as DubbingJobFailedError).message).toMatch(/ended in FAILURE: synthesize-first-half failed: engine exploded$/);
      expect((error as DubbingJobFailedError).job.additionalProducts.every((p) => p.state === 'PENDING_DELIVERY')).toBe(true);
    } finally {
      server.context.synthesizer = engine;
    }
  });

  it('fails intake without target dialogue, and waitFor rejects with the reason', async () => {
    const { requestId } = await client.create({ sourceLocale: 'en-US', targetLocale: 'fr-FR', sourceVideoPath: `${media.url}/videos/ep1.mp4` });
    const error = await client.waitFor(requestId, { pollIntervalMs: 5 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DubbingJobFailedError);
    expect((error as DubbingJobFailedError).job.status).toBe('INTAKE_FAILED');
    expect((error as DubbingJobFailedError).message).toMatch(/no segment carries targetDialogue/);
  });
});
