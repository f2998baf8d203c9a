/**
 * The reference service: one HTTP server on one port carrying REST, the speech sockets (`/ws`, `/open`),
 * live captions sockets and the web console. {@link startServer} builds the shared context, lets each area
 * register its routes, and listens.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { silentLogger } from '../logger.js';
import { Authenticator } from './auth.js';
import { DEFAULT_SERVICE_CONFIG, type ServiceConfig } from './config.js';
import type { ServerContext } from './context.js';
import { registerConsole } from './console/register.js';
import { registerDubbing } from './dubbing/register.js';
import { registerGender } from './gender/register.js';
import { registerLive } from './live/register.js';
import { registerOpenSocket } from './open/register.js';
import { registerSpeech } from './speech/register.js';
import { createSynthesizer, type SynthesizerEngine } from './speech/synth/index.js';
import type { Synthesizer } from './speech/synth/synthesizer.js';
import { openDatabase } from './store.js';
import { registerUsage } from './usage/register.js';
import { ConfigVoiceDirectory } from './voice-directory.js';
import { registerVoices } from './voices/register.js';
import { WebSocketRouter } from './ws-router.js';

/** Options of {@link startServer}. */
export interface ServerOptions {
  /** Port to listen on; 0 picks a free one. Default 8080. */
  port?: number;
  /** Interface to bind. Default `127.0.0.1`. */
  host?: string;
  /** API keys accepted for the first account (in addition to keys in the config). */
  apiKeys?: readonly string[];
  /** Directory of durable state, or `:memory:` for a throwaway server. Default `./.voxpipe`. */
  dataDir?: string;
  /** Service configuration. Default {@link DEFAULT_SERVICE_CONFIG}. */
  config?: ServiceConfig;
  /** Synthesis engine: `builtin` (deterministic), `espeak` (espeak-ng WASM), or `auto` (espeak when installed). Default `auto`. */
  engine?: SynthesizerEngine;
  /** A synthesizer of your own (overrides `engine`): any engine producing 48 kHz mono PCM. */
  synthesizer?: Synthesizer;
  logger?: Logger;
}

/** A running server. */
export interface RunningServer {
  /** `http://HOST:PORT`. */
  url: string;
  port: number;
  /** The keys that authenticate. */
  apiKeys: string[];
  context: ServerContext;
  app: FastifyInstance;
  /** Closes sockets, the HTTP server and the database. */
  close(): Promise<void>;
}

/** Starts the reference service and resolves once it is listening. */
export async function startServer(options: ServerOptions = {}): Promise<RunningServer> {
  const config = options.config ?? DEFAULT_SERVICE_CONFIG;
  const logger = options.logger ?? silentLogger();
  const requestedDir = options.dataDir ?? './.voxpipe';
  const memory = requestedDir === ':memory:';
  const dataDir = memory ? mkdtempSync(join(tmpdir(), 'voxpipe-')) : requestedDir;
  const db = openDatabase(memory ? ':memory:' : dataDir);
  const closers: Array<() => void | Promise<void>> = [];
  const ws = new WebSocketRouter();

  const context: ServerContext = {
    config,
    db,
    logger,
    auth: new Authenticator(config, options.apiKeys ?? []),
    ws,
    dataDir,
    synthesizer: options.synthesizer ?? (await createSynthesizer(options.engine ?? 'auto', logger)),
    voices: new ConfigVoiceDirectory(config),
    meter: { open: () => ({ setModel() {}, close() {} }) },
    onClose: (fn) => closers.push(fn),
  };

  const app = Fastify({ logger: false, bodyLimit: 64 * 1024 * 1024, forceCloseConnections: true });
  acceptJsonWhateverContentType(app);

  // Order matters: usage and voices install the meter and voice directory the speech areas use.
  registerUsage(app, context);
  registerVoices(app, context);
  registerSpeech(app, context);
  registerOpenSocket(app, context);
  registerGender(app, context);
  registerDubbing(app, context);
  registerLive(app, context);
  registerConsole(app, context);

  app.server.on('upgrade', (req, socket, head) => void ws.handleUpgrade(req, socket, head));
  await app.listen({ port: options.port ?? 8080, host: options.host ?? '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : (options.port ?? 8080);
  const host = options.host ?? '127.0.0.1';
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;

  let closing: Promise<void> | undefined;
  return {
    url,
    port,
    apiKeys: context.auth.keys,
    context,
    app,
    close() {
      closing ??= (async () => {
        await ws.close();
        for (const fn of closers.reverse()) await fn();
        await app.close();
        await context.synthesizer.close?.();
        db.close();
        if (memory) rmSync(dataDir, { recursive: true, force: true });
      })();
      return closing;
    },
  };
}

/** Some clients send JSON as `text/plain` or with no content type: parse any body as JSON when it looks like JSON. */
function acceptJsonWhateverContentType(app: FastifyInstance): void {
  app.removeContentTypeParser('text/plain');
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body: Buffer, done) => {
    const text = body.toString('utf8').trim();
    if (text.startsWith('{') || text.startsWith('[')) {
      try {
        done(null, JSON.parse(text));
      } catch (error) {
        done(Object.assign(error as Error, { statusCode: 400 }), undefined);
      }
      return;
    }
    done(null, body);
  });
}
