/**
 * The token pipeline: `speak(tokens)` turns an LLM token stream into `stream-text` frames (see
 * {@link FrameCoalescer} for the policy), and {@link pipeTokens} writes them into a {@link Turn}.
 *
 * ```ts
 * const turn = session.turn({ signal });
 * const writing = pipeTokens(turn, openai.chat.completions.create({ ..., stream: true }), { config: session.config });
 * for await (const chunk of turn.audio()) sink.write(chunk.data);
 * await writing;
 * ```
 */
import { performance } from 'node:perf_hooks';
import { AbortError } from '../errors.js';
import type { StreamConfig } from '../protocol/speech.js';
import type { Turn } from '../client/speech/turn.js';
import type { SpokenSegment } from '../tags/index.js';
import { FrameCoalescer, type CoalescerOptions, type SpeakFrame } from './coalescer.js';
import { deltaText, tokenIterator, type TokenSource, type TokenStreamItem } from './token-source.js';

/** Options of {@link speak}. */
export interface SpeakOptions extends Omit<CoalescerOptions, 'initialState' | 'acceptEmojis'> {
  /** The session's stream-config: initial locale/voice/gender and `acceptEmojis` for segment reporting. */
  config?: Pick<StreamConfig, 'locale' | 'voicePromptId' | 'targetGender' | 'acceptEmojis'> | undefined;
  /** Stops reading tokens; the iteration throws {@link AbortError}. */
  signal?: AbortSignal | undefined;
  /** Stops reading tokens quietly once this settles (`pipeTokens` passes the turn's `done`). */
  until?: Promise<unknown> | undefined;
  /** Called with `performance.now()` when the first token arrives (for time-to-first-audio from the first token). */
  onFirstToken?: ((at: number) => void) | undefined;
}

const TIMER = Symbol('timer');
const ABORTED = Symbol('aborted');
const STOPPED = Symbol('stopped');

/**
 * Reads `source` and yields frames: the first text at once, later text coalesced on clause/word boundaries
 * within `windowMs`, everything flushed at the end. Leaving the loop early, the signal, or `until` settling
 * stops reading `source` (its iterator's `return()` is called, which closes an SDK's HTTP stream).
 */
export async function* speak(source: TokenSource, options: SpeakOptions = {}): AsyncGenerator<SpeakFrame, void, undefined> {
  const { signal, until } = options;
  if (signal?.aborted) throw new AbortError();
  const coalescer = new FrameCoalescer({
    ...options,
    initialState: { locale: options.config?.locale, voicePromptId: options.config?.voicePromptId, targetGender: options.config?.targetGender, emotion: undefined },
    acceptEmojis: options.config?.acceptEmojis ?? false,
  });
  const tokens = tokenIterator(source);
  let onAbort: (() => void) | undefined;
  let stopped = false;
  const interrupted =
    signal || until
      ? new Promise<typeof ABORTED | typeof STOPPED>((resolve) => {
          if (signal) {
            onAbort = () => resolve(ABORTED);
            signal.addEventListener('abort', onAbort, { once: true });
          }
          const stop = (): void => {
            stopped = true;
            resolve(STOPPED);
          };
          until?.then(stop, stop);
        })
      : undefined;
  let next: Promise<IteratorResult<TokenStreamItem>> | IteratorResult<TokenStreamItem> | undefined;
  let timer: NodeJS.Timeout | undefined;
  let done = false;
  let first = true;
  try {
    for (;;) {
      if (signal?.aborted) throw new AbortError();
      if (stopped) return;
      next ??= tokens.next();
      const deadline = coalescer.deadline;
      let result: IteratorResult<TokenStreamItem> | typeof TIMER | typeof ABORTED | typeof STOPPED;
      if (!(next instanceof Promise) && deadline === undefined) result = next;
      else {
        const racers: Array<Promise<IteratorResult<TokenStreamItem> | typeof TIMER | typeof ABORTED | typeof STOPPED> | IteratorResult<TokenStreamItem>> = [next];
        if (interrupted) racers.push(interrupted);
        if (deadline !== undefined) {
          const waitMs = deadline - performance.now();
          racers.push(waitMs <= 0 ? Promise.resolve(TIMER) : new Promise((resolve) => (timer = setTimeout(resolve, waitMs, TIMER))));
        }
        result = await Promise.race(racers);
        clearTimeout(timer);
      }
      if (result === ABORTED) throw new AbortError();
      if (result === STOPPED) return;
      const now = performance.now();
      if (result === TIMER) {
        yield* coalescer.due(now);
        continue;
      }
      next = undefined;
      if (result.done) {
        done = true;
        break;
      }
      const text = deltaText(result.value);
      if (!text) continue;
      if (first) {
        first = false;
        options.onFirstToken?.(now);
      }
      yield* coalescer.push(text, now);
    }
    yield* coalescer.finish(performance.now());
  } finally {
    clearTimeout(timer);
    if (onAbort) signal?.removeEventListener('abort', onAbort);
    if (!done) {
      if (next instanceof Promise) next.catch(() => {});
      // Not awaited: a source blocked in its own next() may only settle return() after its next item.
      Promise.resolve(tokens.return?.()).catch(() => {});
    }
  }
}

/** What {@link pipeTokens} sent. */
export interface PipeSummary {
  /** Frames written. */
  frames: number;
  /** Characters written (tags included). */
  characters: number;
  /** Spoken pieces with their voice state, adjacent pieces of the same state merged. */
  segments: SpokenSegment[];
}

/**
 * Writes the frames of `source` into `turn` and ends it. Stops quietly when the turn is cancelled
 * (barge-in); when `source` throws, the turn is cancelled and the error rethrown.
 */
export async function pipeTokens(turn: Turn, source: TokenSource, options: SpeakOptions = {}): Promise<PipeSummary> {
  const summary: PipeSummary = { frames: 0, characters: 0, segments: [] };
  try {
    for await (const frame of speak(source, {
      ...options,
      until: turn.done,
      onFirstToken: (at) => {
        turn.markFirstToken(at);
        options.onFirstToken?.(at);
      },
    })) {
      if (turn.state !== 'open') break;
      turn.write(frame.text);
      summary.frames++;
      summary.characters += frame.text.length;
      mergeSegments(summary.segments, frame.segments);
    }
  } catch (error) {
    await turn.cancel();
    throw error;
  }
  turn.end();
  return summary;
}

function mergeSegments(into: SpokenSegment[], add: readonly SpokenSegment[]): void {
  for (const segment of add) {
    const last = into[into.length - 1];
    if (last && sameState(last.state, segment.state)) into[into.length - 1] = { ...last, text: last.text + segment.text };
    else into.push(segment);
  }
}

function sameState(a: SpokenSegment['state'], b: SpokenSegment['state']): boolean {
  return a.locale === b.locale && a.voicePromptId === b.voicePromptId && a.targetGender === b.targetGender && a.emotion === b.emotion;
}
