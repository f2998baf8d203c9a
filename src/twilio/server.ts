/**
 * `createTwilioBridgeServer`: a WebSocket server (ws) for Twilio Media Streams. Point a TwiML
 * `<Connect><Stream url="wss://host/twilio"/></Connect>` at it; every stream socket becomes a
 * {@link TwilioCall}, announced with the `call` event so callers can subscribe to its metrics.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { EventEmitter } from 'eventemitter3';
import { WebSocketServer } from 'ws';
import { silentLogger } from '../logger.js';
import { TwilioCall, type TwilioCallOptions } from './call.js';

/** Options of {@link createTwilioBridgeServer}. */
export interface TwilioBridgeServerOptions extends TwilioCallOptions {
  /** Port to listen on; 0 picks a free one. */
  port: number;
  /** Interface to bind. Default `127.0.0.1` (put a TLS proxy or tunnel in front for Twilio). */
  host?: string | undefined;
  /** Path of the stream socket. Default `/twilio`. */
  path?: string | undefined;
  /** Most concurrent calls; further sockets are refused with close code 1013. Default 1000. */
  maxCalls?: number | undefined;
}

/** Events of a {@link TwilioBridgeServer}. */
export interface TwilioBridgeServerEvents {
  /** A stream socket connected; subscribe to the call's events here. */
  call: (call: TwilioCall) => void;
}

/** A running bridge server. */
export interface TwilioBridgeServer extends EventEmitter<TwilioBridgeServerEvents> {
  /** `ws://HOST:PORT/PATH`. */
  readonly url: string;
  readonly port: number;
  /** Calls in progress. */
  readonly calls: ReadonlySet<TwilioCall>;
  /** Ends every call (reason `server-closed`) and stops listening. */
  close(): Promise<void>;
}

/** Starts the bridge and resolves once it listens. */
export async function createTwilioBridgeServer(options: TwilioBridgeServerOptions): Promise<TwilioBridgeServer> {
  const { port, host = '127.0.0.1', path = '/twilio', maxCalls = 1000, ...callOptions } = options;
  const log = (options.logger ?? silentLogger()).child({ component: 'twilio-bridge' });
  const http: Server = createServer((_req, res) => {
    res.writeHead(426, { 'content-type': 'text/plain' }).end('websocket only\n');
  });
  const wss = new WebSocketServer({ server: http, path, maxPayload: 64 * 1024 });
  const calls = new Set<TwilioCall>();
  const emitter = new EventEmitter<TwilioBridgeServerEvents>();
  wss.on('connection', (ws) => {
    if (calls.size >= maxCalls) {
      log.warn({ calls: calls.size }, 'call refused: at capacity');
      ws.close(1013, 'bridge at capacity');
      return;
    }
    const call = new TwilioCall(ws, callOptions);
    calls.add(call);
    call.once('end', () => calls.delete(call));
    emitter.emit('call', call);
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(port, host, () => {
      http.off('error', reject);
      resolve();
    });
  });
  const address = http.address() as AddressInfo;
  const url = `ws://${host.includes(':') ? `[${host}]` : host}:${address.port}${path}`;
  log.info({ url }, 'twilio bridge listening');
  return Object.assign(emitter, {
    url,
    port: address.port,
    calls,
    async close(): Promise<void> {
      await Promise.all([...calls].map((call) => call.end('server-closed')));
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  });
}
