/**
 * The pipeline behind a live service is pluggable ({@link LivePipelineProvider}). The built-in provider makes HLS
 * real end to end: a started `HlsPullSource` service follows the WebVTT subtitle rendition of its input playlist
 * (the rendition of the first translation's language, else the default one) and republishes the cues, text
 * unchanged (identity translation), as the caption output of every translation language; each published segment
 * carries `EXT-X-PROGRAM-DATE-TIME` (the source's, else the time its first cue's source segment appeared). Other
 * input types run with no input connected (nothing pushes to the reference service).
 */
import type { Logger } from 'pino';
import type { LiveServiceConfig } from '../../protocol/live.js';
import type { VttCue } from '../../hls/webvtt.js';
import { CaptionOutput } from './caption-output.js';
import { followCaptions } from './hls-follower.js';

/** Where a pipeline reports its runtime state. */
export interface PipelineSink {
  inputConnected(connected: boolean): void;
  error(message: string): void;
}

/** A started pipeline. */
export interface RunningPipeline {
  /** The caption output of a translation language, if the pipeline publishes one. */
  captions(lang: string): CaptionOutput | undefined;
  stop(): Promise<void>;
}

/** Starts pipelines for services. */
export interface LivePipelineProvider {
  start(service: { id: number; config: LiveServiceConfig }, sink: PipelineSink): RunningPipeline;
}

/** Options of {@link BuiltinPipelineProvider}. */
export interface BuiltinPipelineOptions {
  logger: Logger;
  /** Fixed input playlist reload interval (tests); default follows the target duration. */
  reloadMs?: number | undefined;
}

/** The reference service's provider (see the module comment). */
export class BuiltinPipelineProvider implements LivePipelineProvider {
  readonly #options: BuiltinPipelineOptions;

  constructor(options: BuiltinPipelineOptions) {
    this.#options = options;
  }

  start(service: { id: number; config: LiveServiceConfig }, sink: PipelineSink): RunningPipeline {
    const outputs = new Map(service.config.translations.map((t) => [t.language, new CaptionOutput()] as const));
    const controller = new AbortController();
    const { input } = service.config;
    const done = input.type === 'HlsPullSource' && input.url ? this.#run(input.url, service, outputs, sink, controller.signal) : Promise.resolve();
    return {
      captions: (lang) => outputs.get(lang),
      async stop() {
        controller.abort();
        await done;
      },
    };
  }

  async #run(url: string, service: { id: number; config: LiveServiceConfig }, outputs: Map<string, CaptionOutput>, sink: PipelineSink, signal: AbortSignal): Promise<void> {
    const log = this.#options.logger.child({ area: 'live', serviceId: service.id });
    let pending: VttCue[] = [];
    // Program date-time of the next published segment: the source's for its first cue, else when that cue's segment appeared.
    let pendingSince: number | undefined;
    const lang = service.config.translations[0]?.language ?? 'en';
    try {
      for await (const event of followCaptions({ url, lang, fallbackRendition: true, signal, reloadMs: this.#options.reloadMs })) {
        if (event.type === 'resolved') sink.inputConnected(true);
        else if (event.type === 'cue') {
          pending.push(event.cue);
          pendingSince ??= event.programDateTime ?? event.availableAt;
        } else if (event.type === 'error') {
          log.warn({ err: event.message }, 'live input problem');
          sink.error(event.message);
        } else if (event.type === 'reloaded') {
          for (const output of outputs.values()) output.append(pending, event.targetDuration, pendingSince ?? Date.now());
          pending = [];
          pendingSince = undefined;
        } else {
          for (const output of outputs.values()) output.end();
          sink.inputConnected(false);
        }
      }
    } catch (error) {
      log.error({ err: error }, 'live pipeline failed');
      sink.error((error as Error).message);
    }
  }
}
