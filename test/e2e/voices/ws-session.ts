/** A minimal scripted `/ws` session for tests: connect, send actions, collect messages until a condition. */
import { WebSocket } from 'ws';

/** Messages received on one socket, with a way to wait for the next matching one. */
export interface ScriptedSocket {
  socket: WebSocket;
  messages: Array<Record<string, unknown>>;
  send(message: unknown): void;
  /** Resolves with the first received message (past or future) matching `predicate`; rejects after `timeoutMs`. */
  waitFor(predicate: (m: Record<string, unknown>) => boolean, timeoutMs?: number): Promise<Record<string, unknown>>;
  close(): Promise<void>;
}

/** Opens `/ws` with `apiKey` and records every JSON message. */
export function openScriptedSocket(wsUrl: string, apiKey: string): Promise<ScriptedSocket> {
  const socket = new WebSocket(`${wsUrl}/ws`, { headers: { 'x-api-key': apiKey } });
  const messages: Array<Record<string, unknown>> = [];
  const waiters = new Set<() => void>();
  socket.on('message', (data) => {
    messages.push(JSON.parse(String(data)) as Record<string, unknown>);
    for (const w of waiters) w();
  });
  const scripted: ScriptedSocket = {
    socket,
    messages,
    send: (message) => socket.send(JSON.stringify(message)),
    waitFor(predicate, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = (): void => {
          const found = messages.find(predicate);
          if (!found) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(found);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no matching /ws message within ${timeoutMs} ms; got ${JSON.stringify(messages.map((m) => m.action ?? m.generationId)).slice(0, 500)}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    close: () =>
      new Promise((resolve) => {
        if (socket.readyState === WebSocket.CLOSED) return resolve();
        socket.once('close', () => resolve());
        socket.close();
      }),
  };
  return new Promise((resolve, reject) => {
    socket.once('open', () => resolve(scripted));
    socket.once('error', reject);
  });
}
