/** Running pipelines of live services and their runtime status (input connected, last error). */
import type { LiveServiceConfig } from '../../protocol/live.js';
import type { CaptionOutput } from './caption-output.js';
import type { LivePipelineProvider, RunningPipeline } from './pipeline.js';

interface Entry {
  pipeline: RunningPipeline;
  state: { inputConnected: boolean; lastError: string | null };
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

  /**
   * Starts (or restarts, after a config change) the pipeline of a service. The new pipeline is registered before the
   * old one is awaited, so concurrent starts never leave an unregistered pipeline running.
   */
  async start(id: number, config: LiveServiceConfig): Promise<void> {
    const previous = this.#entries.get(id);
    const state = { inputConnected: false, lastError: null as string | null };
    const pipeline = this.#provider.start(
      { id, config },
      {
        inputConnected: (connected) => void (state.inputConnected = connected),
        error: (message) => void (state.lastError = message),
      },
    );
    this.#entries.set(id, { pipeline, state });
    await previous?.pipeline.stop();
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
    return { active: entry !== undefined, inputConnected: entry?.state.inputConnected ?? false, lastError: entry?.state.lastError ?? null };
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
