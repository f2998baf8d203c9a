import { describe, expect, it } from 'vitest';
import type { LivePipelineProvider, PipelineSink } from '../../../src/server/live/pipeline.js';
import { LiveRuntime } from '../../../src/server/live/runtime.js';
import type { LiveServiceConfig } from '../../../src/protocol/live.js';

/** A provider that records starts/stops and hands out each pipeline's sink. */
function fakeProvider(): LivePipelineProvider & { sinks: PipelineSink[]; log: string[] } {
  const sinks: PipelineSink[] = [];
  const log: string[] = [];
  return {
    sinks,
    log,
    start(service, sink) {
      const n = sinks.push(sink);
      log.push(`start ${service.id}#${n} ${service.config.name}`);
      return {
        captions: () => undefined,
        async stop() {
          log.push(`stop ${service.id}#${n}`);
        },
      };
    },
  };
}
const config = (name: string): LiveServiceConfig => ({ name, input: { type: 'SrtPushSource' }, outputs: [{ type: '608' }], translations: [] });

describe('LiveRuntime', () => {
  it('reports what the running pipeline tells its sink, and forgets it on stop', async () => {
    const provider = fakeProvider();
    const runtime = new LiveRuntime(provider);
    expect(runtime.status(1)).toEqual({ active: false, inputConnected: false, lastError: null });
    await runtime.start(1, config('a'));
    provider.sinks[0]?.inputConnected(true);
    provider.sinks[0]?.error('input stalled');
    expect(runtime.status(1)).toEqual({ active: true, inputConnected: true, lastError: 'input stalled' });
    await runtime.stop(1);
    expect(runtime.status(1)).toEqual({ active: false, inputConnected: false, lastError: null });
    expect(provider.log).toEqual(['start 1#1 a', 'stop 1#1']);
  });

  it('a restart replaces the pipeline: the old one is stopped and its sink no longer counts', async () => {
    const provider = fakeProvider();
    const runtime = new LiveRuntime(provider);
    await Promise.all([runtime.start(7, config('a')), runtime.start(7, config('b'))]);
    provider.sinks[0]?.error('from the old pipeline');
    expect(runtime.status(7).lastError).toBeNull();
    await runtime.close();
    expect(provider.log).toEqual(['start 7#1 a', 'start 7#2 b', 'stop 7#1', 'stop 7#2']);
    expect(runtime.isRunning(7)).toBe(false);
  });
});
