/**
 * A tiny in-test `/ws` server following the spec closely enough to unit-test the client without the
 * reference service: welcome, config-before-text, paced generations (one per stream-text), isFinal after
 * end-stream, cancel with isCancelled + status cancelled, ping/pong. Knobs let tests break the rules.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';

export interface FakeServerOptions {
  /** Send the welcome status (default true). */
  welcome?: boolean;
  /** Answer pings (default true). */
  pong?: boolean;
  /** Chunks per generation (default 3). */
  chunksPerGeneration?: number;
  /** Delay between chunks in ms (default 1). */
  chunkIntervalMs?: number;
  /** Bytes of s16le audio per chunk (default 960 = 10 ms at 48 kHz). */
  chunkBytes?: number;
  /** Required key (default none). */
  apiKey?: string;
  /** Send `status: cancelled` after the isCancelled finish (default true). */
  cancelStatus?: boolean;
  /** Answer cancel at all (default true). */
  cancelAck?: boolean;
}

export interface FakeServer {
  url: string;
  sockets: Set<WebSocket>;
  /** Every parsed client message, per connection order. */
  received: Array<Record<string, unknown>>;
  connections: number;
  /** Sends a raw frame to every socket. */
  broadcast(frame: string): void;
  close(): Promise<void>;
}

export async function startFakeServer(options: FakeServerOptions = {}): Promise<FakeServer> {
  const http: Server = createServer((_req, res) => res.writeHead(404).end());
  const wss = new WebSocketServer({ noServer: true });
  const sockets = new Set<WebSocket>();
  const received: Array<Record<string, unknown>> = [];
  let connections = 0;
  let generationSeq = 0;
  http.on('upgrade', (req, socket, head) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const key = req.headers['x-api-key'] ?? url.searchParams.get('x-api-key');
    if (options.apiKey && key !== options.apiKey) {
      socket.end('HTTP/1.1 401 Unauthorized\r\nContent-Type: application/json\r\nContent-Length: 26\r\nConnection: close\r\n\r\n{"message":"Unauthorized"}');
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => serve(ws));
  });

  function serve(ws: WebSocket): void {
    connections++;
    sockets.add(ws);
    ws.on('close', () => sockets.delete(ws));
    const connectionId = `conn-${connections}`;
    let configured = false;
    const timers = new Set<NodeJS.Timeout>();
    const inFlight = new Set<string>();
    let lastGeneration: string | undefined;
    let turnOpen = false;
    let pendingFinal = false;
    const send = (msg: unknown): void => {
      if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(msg));
    };
    const maybeFinal = (): void => {
      if (pendingFinal && inFlight.size === 0) {
        pendingFinal = false;
        turnOpen = false;
        send({ generationId: lastGeneration ?? 'none', isFinished: true, isFinal: true });
      }
    };
    const queued: Array<() => void> = [];
    const generate = (): void => {
      const id = `gen-${++generationSeq}`;
      lastGeneration = id;
      inFlight.add(id);
      const total = options.chunksPerGeneration ?? 3;
      let index = 0;
      const step = (): void => {
        if (!inFlight.has(id)) return;
        const last = index === total - 1;
        send({ generationId: id, index, data: Buffer.alloc(options.chunkBytes ?? 960, index + 1).toString('base64'), isFinished: last });
        index++;
        if (last) {
          inFlight.delete(id);
          queued.shift()?.();
          maybeFinal();
        } else schedule(step);
      };
      const start = (): void => schedule(step);
      if (inFlight.size > 1) queued.push(start);
      else start();
    };
    const schedule = (fn: () => void): void => {
      const t = setTimeout(() => {
        timers.delete(t);
        fn();
      }, options.chunkIntervalMs ?? 1);
      timers.add(t);
    };
    ws.on('close', () => {
      for (const t of timers) clearTimeout(t);
    });
    if (options.welcome !== false) send({ action: 'status', message: 'connected', connectionId });
    ws.on('message', (data) => {
      let msg: Record<string, unknown>;
      try {
        msg = JSON.parse(String(data)) as Record<string, unknown>;
      } catch {
        send({ action: 'error', message: 'Invalid message format', time: 1 });
        return;
      }
      received.push(msg);
      switch (msg.action) {
        case 'stream-config': {
          const config = (msg.config ?? msg.data) as { model?: string } | undefined;
          if (!config?.model) send({ action: 'error', message: 'model is required in configuration', time: 1 });
          else if (config.model === 'nope') send({ action: 'error', message: 'queue route not found for model: nope', time: 1 });
          else configured = true;
          return;
        }
        case 'stream-text':
          if (!configured) {
            send({ action: 'error', message: "please send 'stream-config' action with model before streaming text", time: 1 });
            return;
          }
          turnOpen = true;
          if (msg.text === 'FAIL') {
            const id = `gen-${++generationSeq}`;
            send({ generationId: id, error: 'worker exploded' });
            return;
          }
          if (msg.text === 'BADB64') {
            send({ generationId: `gen-${++generationSeq}`, index: 0, data: '!!!notbase64', isFinished: false });
            return;
          }
          generate();
          return;
        case 'end-stream':
          if (!turnOpen) return;
          pendingFinal = true;
          maybeFinal();
          return;
        case 'cancel':
          if (options.cancelAck === false) return;
          for (const id of inFlight) send({ generationId: id, isFinished: true, isCancelled: true });
          inFlight.clear();
          queued.length = 0;
          pendingFinal = false;
          turnOpen = false;
          if (options.cancelStatus !== false) send({ action: 'status', message: 'cancelled', connectionId });
          return;
        case 'ping':
          if (options.pong !== false) send({ action: 'pong' });
          return;
      }
    });
  }

  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `ws://127.0.0.1:${port}`,
    sockets,
    received,
    get connections() {
      return connections;
    },
    broadcast(frame) {
      for (const ws of sockets) ws.send(frame);
    },
    async close() {
      for (const ws of sockets) ws.terminate();
      wss.close();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
