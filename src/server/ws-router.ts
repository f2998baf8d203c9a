/**
 * Routes WebSocket upgrades on the shared HTTP server to handlers by path. Handlers may reject the
 * handshake with an HTTP status before the upgrade completes (e.g. 401 for a bad key).
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';

/** What a route's `accept` decides: reject with a status, or accept with state for `connected`. */
export type UpgradeDecision<S> = { reject: number; message?: string } | { accept: S };

/** One WebSocket route. `match` returns path parameters or undefined. */
export interface WebSocketRoute<S = unknown> {
  match(pathname: string): Record<string, string> | undefined;
  /** Runs before the upgrade; may reject the handshake. */
  accept(req: IncomingMessage, url: URL, params: Record<string, string>): UpgradeDecision<S> | Promise<UpgradeDecision<S>>;
  /** Runs once the socket is open. */
  connected(ws: WebSocket, req: IncomingMessage, state: S): void;
}

/** Dispatches `upgrade` events to routes; unknown paths get 404. */
export class WebSocketRouter {
  readonly #routes: WebSocketRoute<any>[] = [];
  readonly #wss = new WebSocketServer({ noServer: true, maxPayload: 16 * 1024 * 1024 });

  /** Adds a route. Routes are tried in insertion order. */
  add<S>(route: WebSocketRoute<S>): void {
    this.#routes.push(route);
  }

  /** Every open socket across routes. */
  get clients(): Set<WebSocket> {
    return this.#wss.clients;
  }

  /** Handler for the HTTP server's `upgrade` event. */
  async handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://localhost');
    for (const route of this.#routes) {
      const params = route.match(url.pathname);
      if (!params) continue;
      let decision: UpgradeDecision<unknown>;
      try {
        decision = await route.accept(req, url, params);
      } catch {
        decision = { reject: 500 };
      }
      if ('reject' in decision) return rejectUpgrade(socket, decision.reject, decision.message);
      this.#wss.handleUpgrade(req, socket, head, (ws) => route.connected(ws, req, decision.accept));
      return;
    }
    rejectUpgrade(socket, 404);
  }

  /**
   * Closes every socket (code 1001, going away) and resolves once all have closed, so their close handlers
   * run while the rest of the server is still up; sockets that do not finish the closing handshake within
   * `graceMs` are terminated.
   */
  async close(graceMs = 1000): Promise<void> {
    const open = [...this.#wss.clients];
    const closed = open.map((ws) => new Promise<void>((resolve) => (ws.readyState === ws.CLOSED ? resolve() : ws.once('close', () => resolve()))));
    for (const ws of open) ws.close(1001, 'server shutting down');
    const timer = setTimeout(() => {
      for (const ws of open) ws.terminate();
    }, graceMs);
    await Promise.all(closed);
    clearTimeout(timer);
    this.#wss.close();
  }
}

const REASONS: Record<number, string> = { 400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 500: 'Internal Server Error' };

function rejectUpgrade(socket: Duplex, status: number, message?: string): void {
  const body = JSON.stringify({ message: message ?? REASONS[status] ?? 'Error' });
  socket.end(
    `HTTP/1.1 ${status} ${REASONS[status] ?? 'Error'}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
}
