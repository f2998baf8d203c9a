/** Running pipelines of live services and their runtime status (input connected, last error). */
import type { LiveServiceConfig } from '../../protocol/live.js';
import type { CaptionOutput } from './caption-output.js';
import type { LivePipelineProvider, RunningPipeline } from './pipeline.js';

interface Entry {
  pipeline: RunningPipeline;
  inputConnected: boolean;
  lastError: string | null;
}

/** Runtime view of one service. */
export interface RuntimeStatus {
  active: boolean;
  inputConnected: boolean;
  lastError: string | null;
}

/** Starts and stops pipelines through the provider; one pipeline per service id. */
export class LiveRuntime {
  readonly #provider: LivePipelineProvider;
  readonly #entries = new Map<number, Entry>();

  constructor(provider: LivePipelineProvider) {
    this.#provider = provider;
  }

  /** Starts (or restarts, after a config change) the pipeline of a service. */
  async start(id: number, config: LiveServiceConfig): Promise<void> {
    await this.stop(id);
    const entry: Entry = { inputConnected: false, lastError: null, pipeline: undefined as unknown as RunningPipeline };
    entry.pipeline = this.#provider.start(
      { id, config },
      {
        inputConnected: (connected) => void (entry.inputConnected = connected),
        error: (message) => void (entry.lastError = message),
      },
    );
    this.#entries.set(id, entry);
  }

  /** Stops the pipeline of a service, if running. */
  async stop(id: number): Promise<void> {
    const entry = this.#entries.get(id);
    this.#entries.delete(id);
    await entry?.pipeline.stop();
  }

  /** Whether a pipeline runs for `id`. */
  isRunning(id: number): boolean {
    return this.#entries.has(id);
  }

  /** Runtime status of `id`. */
  status(id: number): RuntimeStatus {
    const entry = this.#entries.get(id);
    return { active: entry !== undefined, inputConnected: entry?.inputConnected ?? false, lastError: entry?.lastError ?? null };
  }

  /** The caption output of a running service's language. */
  captions(id: number, lang: string): CaptionOutput | undefined {
    return this.#entries.get(id)?.pipeline.captions(lang);
  }

  /** Stops every pipeline (server shutdown; persisted states are left as they are). */
  async close(): Promise<void> {
    await Promise.all([...this.#entries.keys()].map((id) => this.stop(id)));
  }
}
