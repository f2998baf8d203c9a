/** A minimal raw `ws` client for the speech socket tests: records every message and waits on predicates. */
import { WebSocket } from 'ws';
import type { RunningServer } from '../../../src/server/app.js';
import { TEST_API_KEY, wsBase } from '../../helpers/server.js';

/** Any message the server sent, as parsed JSON. */
export type Msg = Record<string, unknown> & { action?: string; generationId?: string; index?: number; data?: string; isFinished?: boolean; isFinal?: boolean; isCancelled?: boolean; error?: string; message?: string };

/** A connected test client. */
export interface RawClient {
  ws: WebSocket;
  messages: Msg[];
  send(message: unknown): void;
  /** Resolves with the first message (from index `from`) matching `predicate`. */
  next(predicate: (m: Msg) => boolean, from?: number, timeoutMs?: number): Promise<Msg>;
  /** Sends ping and resolves once its pong arrives: every earlier reply has been received by then. */
  roundTrip(): Promise<void>;
  close(): Promise<void>;
}

/** Connects to `path` (default `/ws`) with the test key (in the query unless `auth` says header). */
export async function connect(server: RunningServer, options: { path?: string; auth?: 'query' | 'header' | 'none'; key?: string } = {}): Promise<RawClient> {
  const key = options.key ?? TEST_API_KEY;
  const auth = options.auth ?? 'query';
  const url = `${wsBase(server)}${options.path ?? '/ws'}${auth === 'query' ? `?x-api-key=${key}` : ''}`;
  const ws = new WebSocket(url, auth === 'header' ? { headers: { 'x-api-key': key } } : {});
  const messages: Msg[] = [];
  const waiters = new Set<() => void>();
  ws.on('message', (data) => {
    messages.push(JSON.parse(data.toString()) as Msg);
    for (const w of [...waiters]) w();
  });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  const client: RawClient = {
    ws,
    messages,
    send: (m) => ws.send(typeof m === 'string' ? m : JSON.stringify(m)),
    next(predicate, from = 0, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = (): void => {
          const found = messages.slice(from).find(predicate);
          if (found) {
            waiters.delete(check);
            clearTimeout(timer);
            resolve(found);
          }
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`timed out waiting; got ${JSON.stringify(messages.slice(from).map(brief))}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    async roundTrip() {
      const from = messages.length;
      ws.send(JSON.stringify({ action: 'ping' }));
      await client.next((m) => m.action === 'pong', from);
    },
    close: () =>
      new Promise<void>((resolve) => {
        if (ws.readyState === ws.CLOSED) return resolve();
        ws.once('close', () => resolve());
        ws.close();
      }),
  };
  return client;
}

/** A message without its audio payload, for readable failure output. */
export function brief(m: Msg): Msg {
  return m.data ? { ...m, data: `<${m.data.length} b64>` } : m;
}

/** The audio chunks of one turn, from `from` until its isFinal chunk. */
export async function collectTurn(client: RawClient, from: number, timeoutMs = 15_000): Promise<Msg[]> {
  await client.next((m) => m.isFinal === true, from, timeoutMs);
  return client.messages.slice(from).filter((m) => typeof m.generationId === 'string');
}

/** Groups chunks by generation, in order of first appearance. */
export function byGeneration(chunks: Msg[]): Map<string, Msg[]> {
  const out = new Map<string, Msg[]>();
  for (const c of chunks) {
    const id = c.generationId as string;
    out.set(id, [...(out.get(id) ?? []), c]);
  }
  return out;
}

/** Concatenated decoded audio bytes of `chunks`. */
export function audioBytes(chunks: Msg[]): Buffer {
  return Buffer.concat(chunks.filter((c) => c.data).map((c) => Buffer.from(c.data as string, 'base64')));
}

/** The model every test uses. */
export const MODEL = 'dd-etts-3.3';
