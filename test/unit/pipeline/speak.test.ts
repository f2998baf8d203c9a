import { afterEach, describe, expect, it } from 'vitest';
import { SpeechSession } from '../../../src/client/speech-session.js';
import { pipeTokens, speak } from '../../../src/pipeline/speak.js';
import type { SpeakFrame } from '../../../src/pipeline/coalescer.js';
import { startFakeServer, type FakeServer } from '../client/fake-speech-server.js';
import { codeOf, collect } from '../client/test-utils.js';

async function frames(iterable: AsyncIterable<SpeakFrame>): Promise<string[]> {
  const out: string[] = [];
  for await (const f of iterable) out.push(f.text);
  return out;
}

/** A source that yields `items` and then blocks until returned; records whether return() was called. */
function blockingSource<T>(items: T[]): AsyncIterable<T> & { returned: boolean } {
  const source = {
    returned: false,
    [Symbol.asyncIterator]() {
      let i = 0;
      return {
        next: (): Promise<IteratorResult<T>> => (i < items.length ? Promise.resolve({ value: items[i++] as T, done: false }) : new Promise(() => {})),
        return: (): Promise<IteratorResult<T>> => {
          source.returned = true;
          return Promise.resolve({ value: undefined, done: true });
        },
      };
    },
  };
  return source;
}

describe('speak', () => {
  it('reads OpenAI chat completion chunks and reproduces the text', async () => {
    const text = 'Hello there, how can I help? [happy] Sure.';
    async function* chunks(): AsyncGenerator<unknown> {
      yield { choices: [{ index: 0, delta: { role: 'assistant' } }] };
      for (const piece of text.match(/.{1,3}/g) ?? []) yield { choices: [{ index: 0, delta: { content: piece } }] };
      yield { choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] };
    }
    expect((await frames(speak(chunks() as AsyncIterable<never>, { windowMs: 1 }))).join('')).toBe(text);
  });

  it('reads OpenAI Responses stream events', async () => {
    const events = [{ type: 'response.created' }, { type: 'response.output_text.delta', delta: 'Hi ' }, { type: 'response.output_text.delta', delta: 'you.' }, { type: 'response.completed' }];
    expect((await frames(speak(events as unknown as AsyncIterable<never>))).join('')).toBe('Hi you.');
    expect(await frames(speak(['Plain ', 'strings.']))).toEqual(['Plain ', 'strings.']);
  });

  it('calls onFirstToken once, with the time of the first text-bearing item', async () => {
    const seen: number[] = [];
    await frames(speak(['', 'a', 'b'], { onFirstToken: (at) => seen.push(at) }));
    expect(seen).toHaveLength(1);
  });

  it('stops a blocked source on abort with AbortError, and on an early break', async () => {
    const source = blockingSource(['Hello ', 'world']);
    const controller = new AbortController();
    const got: string[] = [];
    const run = (async () => {
      for await (const f of speak(source, { signal: controller.signal })) {
        got.push(f.text);
        controller.abort();
      }
    })();
    expect(await codeOf(run)).toBe('aborted');
    expect(source.returned).toBe(true);
    const other = blockingSource(['One. ', 'Two. ']);
    for await (const _ of speak(other)) break;
    expect(other.returned).toBe(true);
  });
});

describe('pipeTokens', () => {
  let server: FakeServer | undefined;
  let session: SpeechSession | undefined;
  afterEach(async () => {
    await session?.close();
    await server?.close();
  });

  async function connect(chunksPerGeneration = 3): Promise<SpeechSession> {
    server = await startFakeServer({ chunksPerGeneration });
    session = await SpeechSession.connect({ baseUrl: server.url, config: { model: 'm', locale: 'en-US' } });
    return session;
  }

  it('writes the frames into the turn, ends it, and reports segments with their voice state', async () => {
    const s = await connect();
    const turn = s.turn();
    const writing = pipeTokens(turn, ['Hello ', 'there. <config locale="de-DE"/>', 'Hallo.'], { config: s.config });
    const chunks = await collect(turn.audio());
    const summary = await writing;
    expect(chunks.at(-1)?.isFinal).toBe(true);
    expect(summary.characters).toBe('Hello there. <config locale="de-DE"/>Hallo.'.length);
    expect(summary.segments.map((x) => [x.text, x.state.locale])).toEqual([
      ['Hello there. ', 'en-US'],
      ['Hallo.', 'de-DE'],
    ]);
    const sent = server?.received.filter((m) => m.action === 'stream-text').map((m) => m.text);
    expect(sent?.join('')).toBe('Hello there. <config locale="de-DE"/>Hallo.');
    expect((await turn.done).ttfaFromFirstTokenMs).toBeGreaterThan(0);
  });

  it('stops reading the source quietly when the turn is cancelled', async () => {
    const s = await connect(500);
    const source = blockingSource(['Talking and talking ']);
    const turn = s.turn();
    const writing = pipeTokens(turn, source);
    for await (const _ of turn.audio()) break;
    const summary = await writing;
    expect(summary.frames).toBe(1);
    expect(source.returned).toBe(true);
    expect((await turn.done).outcome).toBe('cancelled');
  });

  it('cancels the turn and rethrows when the source fails', async () => {
    const s = await connect(500);
    async function* failing(): AsyncGenerator<string> {
      yield 'Partial answer ';
      await new Promise((r) => setTimeout(r, 5));
      throw new Error('LLM went away');
    }
    const turn = s.turn();
    const reading = collect(turn.audio());
    await expect(pipeTokens(turn, failing())).rejects.toThrow('LLM went away');
    await reading;
    expect((await turn.done).outcome).toBe('cancelled');
    expect(server?.received.some((m) => m.action === 'cancel')).toBe(true);
  });
});
