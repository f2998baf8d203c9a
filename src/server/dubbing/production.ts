/**
 * The work behind each workflow step ({@link StepWork}): intake checks, casting, synthesis of each segment's
 * target dialogue with the embedded synthesizer in the target locale (fitted into its slot, cached per segment
 * and revision so a repeated or resumed step only synthesizes what is missing), mixing the dubbed track and
 * delivering it and the text products to their `s3://` paths (the local stand-in under `DATA_DIR/s3`).
 * Every step is idempotent: it derives its output from the stored job and overwrites files atomically.
 */
import { copyFileSync, existsSync, mkdirSync, renameSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { dirname, join } from 'node:path';
import type { VoiceConfig } from '../config.js';
import { SYNTH_SAMPLE_RATE, type Synthesizer } from '../speech/synth/synthesizer.js';
import { dubbedSegments, renderProduct } from './products.js';
import { localS3Path, writeFileAtomic } from './export-store.js';
import { fitToSlot } from './fit.js';
import { mixTrack } from './mix.js';
import type { DubbingStore, JobPlan, JobRow } from './store.js';
import type { StepWork } from './workflow.js';
import type { DubbingJobStatusName } from '../../protocol/dubbing.js';

/** What a step's work produced, committed with the transition. */
export interface WorkResult {
  trace: string[];
  /** Overrides the step's next status (e.g. INTAKE_FAILED). */
  status?: DubbingJobStatusName;
  plan?: JobPlan;
  /** Positions of products delivered by this step. */
  delivered?: number[];
}

/** What the producer needs from the server. */
export interface ProducerDeps {
  dataDir: string;
  synthesizer: Synthesizer;
  voices: readonly VoiceConfig[];
  store: DubbingStore;
  /** Least time between two progress lines written while a step synthesizes, ms. */
  progressIntervalMs: number;
}

const samplesOf = (ms: number): number => Math.round((ms * SYNTH_SAMPLE_RATE) / 1000);
const seconds = (ms: number): string => `${(ms / 1000).toFixed(3)} s`;

/** The `s3://` path the dubbed track is exported to: `exportPath` with a `.wav` extension. */
export function audioExportPath(exportPath: string): string {
  return /\.wav$/i.test(exportPath) ? exportPath : `${exportPath.replace(/\.[^./]*$/, '')}.wav`;
}

/** Performs the work of workflow steps. */
export class DubbingProducer {
  readonly #deps: ProducerDeps;

  constructor(deps: ProducerDeps) {
    this.#deps = deps;
  }

  #jobDir(job: JobRow): string {
    return join(this.#deps.dataDir, 'dubbing', job.requestId);
  }

  #segmentPath(job: JobRow, index: number): string {
    return join(this.#jobDir(job), 'segments', `seg-${index}-r${job.plan.segmentRevisions[index] ?? 0}.pcm`);
  }

  #stagedTrack(job: JobRow): string {
    return join(this.#jobDir(job), 'dubbed.wav');
  }

  /** Runs `work` for `job`. */
  async run(work: StepWork, job: JobRow, signal: AbortSignal): Promise<WorkResult> {
    switch (work) {
      case 'none':
        return { trace: [] };
      case 'preprocess':
        return this.#preprocess(job);
      case 'validate':
        return this.#validate(job);
      case 'demix':
        return {
          trace: [job.request.sourceMAndETrackPath ? `music-and-effects stem: ${job.request.sourceMAndETrackPath}` : 'no separate music-and-effects track: the dub is the dialogue stem'],
        };
      case 'cast':
        return this.#cast(job);
      case 'synthesize-first-half':
        return this.#synthesize(job, 'first-half', signal);
      case 'synthesize-remaining':
        return this.#synthesize(job, 'all', signal);
      case 'qc-fix':
        return this.#qcFix(job, signal);
      case 'mix':
        return this.#mix(job, signal);
      case 'mix-and-deliver': {
        const mixed = await this.#mix(job, signal);
        const delivered = this.#deliver(job);
        return { ...delivered, trace: [...mixed.trace, ...delivered.trace] };
      }
      case 'deliver':
        return this.#deliver(job);
      case 'plan-refix':
        return this.#planRefix(job);
      case 'reject-refix':
        this.#deps.store.restoreDelivered(job.requestId);
        return { trace: [`refix of revision ${job.revision} rejected by review; the last delivery stands`] };
    }
  }

  #preprocess(job: JobRow): WorkResult {
    const segments = job.request.segments ?? [];
    const lastEnd = segments.reduce((m, s) => Math.max(m, s.timestampEnd), 0);
    const durationMs = job.source.durationMs ?? lastEnd;
    const source = `source video: ${job.source.container}${job.source.durationMs === undefined ? ', duration not stated in the container head' : `, ${seconds(job.source.durationMs)}`}`;
    return {
      plan: { ...job.plan, durationMs },
      trace: [source, `${segments.length} segment(s), ${dubbedSegments(segments).length} with target dialogue; dubbed track length ${seconds(durationMs)}`],
    };
  }

  #validate(job: JobRow): WorkResult {
    if (dubbedSegments(job.request.segments ?? []).length === 0) {
      return {
        status: 'INTAKE_FAILED',
        trace: ['no segment carries targetDialogue: the reference service does not transcribe or translate, so send segments with targetDialogue'],
      };
    }
    return { trace: [`intake approved: ${job.request.sourceLocale} → ${job.request.targetLocale}, ${job.request.workflowType}, ${job.request.mixType}`] };
  }

  #cast(job: JobRow): WorkResult {
    const language = new Intl.Locale(job.request.targetLocale).language;
    const voices = [...this.#deps.voices].sort((a, b) => Number(new Intl.Locale(b.locale).language === language) - Number(new Intl.Locale(a.locale).language === language));
    const casting: Record<string, string> = {};
    const trace: string[] = [];
    for (const segment of job.request.segments ?? []) {
      if (casting[segment.characterId] !== undefined) continue;
      const voice = voices[Object.keys(casting).length % voices.length];
      if (!voice) throw new Error('no voices are configured');
      casting[segment.characterId] = voice.voicePromptId;
      trace.push(`cast ${segment.characterId} (${segment.characterName}) → ${voice.name} (${voice.locale})`);
    }
    return { plan: { ...job.plan, casting }, trace };
  }

  #voiceFor(job: JobRow, characterId: string): VoiceConfig {
    const id = job.plan.casting[characterId];
    const voice = this.#deps.voices.find((v) => v.voicePromptId === id) ?? this.#deps.voices[0];
    if (!voice) throw new Error('no voices are configured');
    return voice;
  }

  async #synthesize(job: JobRow, which: 'first-half' | 'all', signal: AbortSignal): Promise<WorkResult> {
    const segments = job.request.segments ?? [];
    const dubbed = segments.map((s, index) => ({ s, index })).filter(({ s }) => (s.targetDialogue ?? '').trim().length > 0);
    const chosen = which === 'first-half' ? dubbed.slice(0, Math.ceil(dubbed.length / 2)) : dubbed;
    let made = 0;
    let spedUp = 0;
    let trimmed = 0;
    let maxSpeedup = 1;
    let lastNote = Date.now();
    for (const [position, { s, index }] of chosen.entries()) {
      const path = this.#segmentPath(job, index);
      if (existsSync(path)) continue;
      if (Date.now() - lastNote >= this.#deps.progressIntervalMs) {
        lastNote = Date.now();
        this.#deps.store.note(job.requestId, job.status, `synthesizing segment ${position + 1} of ${chosen.length} in this step`);
      }
      const slot = samplesOf(s.timestampEnd - s.timestampStart);
      const fitted = fitToSlot(await this.#speak(job, s.targetDialogue ?? '', s.characterId, slot * 4, signal), slot);
      writeFileAtomic(path, new Uint8Array(fitted.pcm.buffer, fitted.pcm.byteOffset, fitted.pcm.byteLength));
      made++;
      if (fitted.speedup > 1) spedUp++;
      if (fitted.trimmed) trimmed++;
      maxSpeedup = Math.max(maxSpeedup, fitted.speedup);
    }
    const done = dubbed.filter(({ index }) => existsSync(this.#segmentPath(job, index))).length;
    const fitNote = spedUp > 0 ? `; ${spedUp} sped up (up to ×${maxSpeedup.toFixed(2)})${trimmed > 0 ? `, ${trimmed} trimmed to fit` : ''}` : '';
    return { trace: [`synthesized ${made} segment(s) in ${job.request.targetLocale} with ${this.#deps.synthesizer.name}: ${done}/${dubbed.length} ready${fitNote}`] };
  }

  /** Synthesizes `text`, keeping at most `maxSamples` samples. */
  async #speak(job: JobRow, text: string, characterId: string, maxSamples: number, signal: AbortSignal): Promise<Int16Array> {
    const voice = this.#voiceFor(job, characterId);
    const parts: Int16Array[] = [];
    let total = 0;
    for await (const block of this.#deps.synthesizer.synthesize({ text, locale: job.request.targetLocale, voice, signal })) {
      parts.push(block);
      total += block.length;
      if (total >= maxSamples) break;
    }
    signal.throwIfAborted();
    const pcm = new Int16Array(Math.min(total, maxSamples));
    let at = 0;
    for (const part of parts) {
      const take = Math.min(part.length, pcm.length - at);
      pcm.set(part.subarray(0, take), at);
      at += take;
    }
    return pcm;
  }

  /** Segments of the job that overlap `[start, end]` ms. */
  #segmentsIn(job: JobRow, start: number, end: number): number[] {
    return (job.request.segments ?? []).flatMap((s, i) => (s.timestampStart <= end && s.timestampEnd >= start ? [i] : []));
  }

  async #qcFix(job: JobRow, signal: AbortSignal): Promise<WorkResult> {
    const plan: JobPlan = { ...job.plan, segmentRevisions: job.plan.segmentRevisions.map((r) => r + 1) };
    const result = await this.#synthesize({ ...job, plan }, 'all', signal);
    return { plan, trace: ['QC rejected: resynthesizing every segment', ...result.trace] };
  }

  #planRefix(job: JobRow): WorkResult {
    const feedback = this.#deps.store.feedback(job.requestId, job.revision);
    const issues = feedback?.issues ?? [];
    const affected = new Set(issues.length === 0 ? (job.request.segments ?? []).map((_, i) => i) : issues.flatMap((issue) => this.#segmentsIn(job, issue.timestampStart, issue.timestampEnd)));
    const plan: JobPlan = { ...job.plan, segmentRevisions: job.plan.segmentRevisions.map((r, i) => (affected.has(i) ? r + 1 : r)) };
    const ids = [...affected].sort((a, b) => a - b).map((i) => job.request.segments?.[i]?.segmentId ?? `#${i}`);
    return {
      plan,
      trace: [`revision ${job.revision}: ${issues.length} issue(s) reported; resynthesizing ${ids.length} segment(s)${ids.length ? `: ${ids.join(', ')}` : ''}`],
    };
  }

  async #mix(job: JobRow, signal: AbortSignal): Promise<WorkResult> {
    const durationMs = job.plan.durationMs ?? 0;
    const placed = (job.request.segments ?? []).flatMap((s, index) => {
      const pcmPath = this.#segmentPath(job, index);
      return existsSync(pcmPath) ? [{ startSample: samplesOf(s.timestampStart), pcmPath }] : [];
    });
    await mixTrack(placed, samplesOf(durationMs), this.#stagedTrack(job), signal);
    return { trace: [`mixed ${placed.length} segment(s) into a ${seconds(durationMs)} 48 kHz dialogue track (${job.request.mixType})`] };
  }

  #deliver(job: JobRow): WorkResult {
    const trace: string[] = [];
    const target = localS3Path(this.#deps.dataDir, job.exportPath);
    mkdirSync(dirname(target), { recursive: true });
    const tmp = join(dirname(target), `.${randomUUID()}.tmp`);
    copyFileSync(this.#stagedTrack(job), tmp);
    renameSync(tmp, target);
    trace.push(`dubbed track delivered to ${job.exportPath}`);
    const delivered: number[] = [];
    const input = { segments: job.request.segments ?? [], targetLocale: job.request.targetLocale, sourceLocale: job.request.sourceLocale, titleName: job.request.titleName };
    for (const product of this.#deps.store.products(job.requestId)) {
      const text = renderProduct(product.product, input);
      if (text === undefined) {
        trace.push(`${product.product} is not produced by the reference service; it stays PENDING_DELIVERY`);
        continue;
      }
      writeFileAtomic(localS3Path(this.#deps.dataDir, product.assetPath), text);
      delivered.push(product.position);
    }
    if (delivered.length > 0) trace.push(`${delivered.length} product(s) delivered`);
    return { trace, delivered };
  }
}
