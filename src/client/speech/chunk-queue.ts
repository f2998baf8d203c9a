/**
 * Single-consumer async queue with a high-water mark. When `highWaterMark` items wait, `onHigh` fires (the
 * session pauses reading its socket); once the consumer drained it to half, `onLow` fires (reading resumes).
 * The bound is therefore the mark plus whatever the socket had already buffered when it was paused.
 */

/** Watermark callbacks of a {@link ChunkQueue}. */
export interface ChunkQueueHooks {
  onHigh(): void;
  onLow(): void;
}

/** Bounded single-consumer queue: `push` from the socket side, `next` from the `for await` side. */
export class ChunkQueue<T> {
  readonly #items: T[] = [];
  #head = 0;
  #waiter: ((result: IteratorResult<T>) => void) | undefined;
  #failWaiter: ((error: unknown) => void) | undefined;
  #ended = false;
  #error: unknown;
  #high = false;
  readonly #highWaterMark: number;
  readonly #hooks: ChunkQueueHooks;

  constructor(highWaterMark: number, hooks: ChunkQueueHooks) {
    this.#highWaterMark = Math.max(1, highWaterMark);
    this.#hooks = hooks;
  }

  /** Items waiting to be read. */
  get size(): number {
    return this.#items.length - this.#head;
  }

  /** Whether no more items will be accepted. */
  get closed(): boolean {
    return this.#ended;
  }

  /** Adds an item (ignored after end/fail); hands it straight to a waiting consumer when there is one. */
  push(item: T): void {
    if (this.#ended) return;
    const waiter = this.#waiter;
    if (waiter) {
      this.#clearWaiter();
      waiter({ value: item, done: false });
      return;
    }
    this.#items.push(item);
    if (!this.#high && this.size >= this.#highWaterMark) {
      this.#high = true;
      this.#hooks.onHigh();
    }
  }

  /** No more items: the consumer reads what is queued, then is done. */
  end(): void {
    if (this.#ended) return;
    this.#ended = true;
    if (this.size === 0) this.#settleWaiterDone();
  }

  /** Stops at once: drops queued items and ends the consumer now (barge-in). */
  clear(): void {
    this.#items.length = 0;
    this.#head = 0;
    this.#ended = true;
    this.#releaseHigh();
    this.#settleWaiterDone();
  }

  /** Fails: the consumer reads what is queued, then `next` rejects with `error`. */
  fail(error: unknown): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#error = error;
    if (this.size === 0 && this.#failWaiter) {
      const fail = this.#failWaiter;
      this.#clearWaiter();
      fail(error);
    }
  }

  /** The next item; done after `end`/`clear`, rejected after `fail` once the queue is drained. */
  next(): Promise<IteratorResult<T>> {
    if (this.size > 0) {
      const value = this.#items[this.#head] as T;
      this.#items[this.#head++] = undefined as T;
      if (this.#head === this.#items.length) {
        this.#items.length = 0;
        this.#head = 0;
      }
      if (this.#high && this.size <= this.#highWaterMark >> 1) this.#releaseHigh();
      return Promise.resolve({ value, done: false });
    }
    if (this.#ended) return this.#error === undefined ? Promise.resolve({ value: undefined, done: true }) : Promise.reject(this.#error);
    if (this.#waiter) return Promise.reject(new Error('ChunkQueue has a single consumer'));
    return new Promise((resolve, reject) => {
      this.#waiter = resolve;
      this.#failWaiter = reject;
    });
  }

  #releaseHigh(): void {
    if (!this.#high) return;
    this.#high = false;
    this.#hooks.onLow();
  }

  #settleWaiterDone(): void {
    const waiter = this.#waiter;
    if (!waiter) return;
    this.#clearWaiter();
    waiter({ value: undefined, done: true });
  }

  #clearWaiter(): void {
    this.#waiter = undefined;
    this.#failWaiter = undefined;
  }
}
