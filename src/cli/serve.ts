/** `voxpipe serve`: runs the reference service until SIGINT/SIGTERM. */
import { parseArgs } from 'node:util';
import { createLogger } from '../logger.js';
import { startServer } from '../server/app.js';
import { generateApiKey } from '../server/auth.js';
import { loadServiceConfig } from '../server/config.js';
import type { SynthesizerEngine } from '../server/speech/synth/index.js';
import type { Command } from './command.js';

/** Help text of `voxpipe serve`. */
const SERVE_HELP = `Usage: voxpipe serve [options]

Runs the reference service (REST, /ws, /open, /live, captions, web console) on one port.

Options:
  --port N          Port to listen on (default: $PORT or 8080; 0 picks a free port)
  --host ADDR       Interface to bind (default 127.0.0.1; use 0.0.0.0 in containers)
  --api-key KEY     Accepted API key (repeatable; also VOXPIPE_API_KEYS=k1,k2).
                    With none, a dev key dd-<32 hex> is generated and printed.
  --data DIR        Durable state directory (default ./.voxpipe; ':memory:' for none)
  --config FILE     Service config JSON (models, voices, emotions, accounts)
  --engine NAME     Synthesizer: auto | espeak | builtin (default auto)
  --log-level LVL   pino level (default info)
  -h, --help        Show this help
`;

/** Runs `voxpipe serve` with `argv` (arguments after `serve`). Resolves to the exit code. */
export async function serve(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      'api-key': { type: 'string', multiple: true },
      data: { type: 'string' },
      config: { type: 'string' },
      engine: { type: 'string' },
      'log-level': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    process.stdout.write(SERVE_HELP);
    return 0;
  }
  const portText = values.port ?? process.env.PORT ?? '8080';
  const port = Number(portText);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    process.stderr.write(`voxpipe serve: invalid port: ${portText}\n`);
    return 2;
  }
  const engine = (values.engine ?? 'auto') as SynthesizerEngine;
  if (!['auto', 'espeak', 'builtin'].includes(engine)) {
    process.stderr.write(`voxpipe serve: unknown engine: ${engine}\n`);
    return 2;
  }
  const keys = [...(values['api-key'] ?? []), ...(process.env.VOXPIPE_API_KEYS ?? '').split(',').map((k) => k.trim()).filter(Boolean)];
  const generated = keys.length === 0 ? generateApiKey() : undefined;
  if (generated) keys.push(generated);
  const logger = createLogger(values['log-level'] ? { level: values['log-level'] } : {});
  const server = await startServer({
    port,
    host: values.host ?? '127.0.0.1',
    apiKeys: keys,
    dataDir: values.data ?? './.voxpipe',
    engine,
    logger,
    ...(values.config ? { config: loadServiceConfig(values.config) } : {}),
  });
  if (generated) process.stdout.write(`dev api key: ${generated}\n`);
  process.stdout.write(`synthesizer: ${server.context.synthesizer.name}\n`);
  process.stdout.write(`console: ${server.url}/#key=${keys[0] ?? ''}\n`);
  process.stdout.write(`listening on ${server.url}\n`);
  await new Promise<void>((resolve) => {
    const stop = (): void => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  await server.close();
  return 0;
}

/** `voxpipe serve`. */
export const serveCommand: Command = {
  name: 'serve',
  summary: 'Run the reference service (REST, /ws, /open, live, captions, web console)',
  help: SERVE_HELP,
  run: serve,
};
