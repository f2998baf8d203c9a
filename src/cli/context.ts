/**
 * What every CLI command shares: where the service is (host, region, key from flags or environment), how to
 * print (tables or `--json`), and typed exit codes.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { VoxpipeError } from '../errors.js';

export { printTable } from '../text-table.js';

/** Exit codes of the `voxpipe` command. */
export const EXIT = {
  ok: 0,
  failure: 1,
  usage: 2,
  unauthorized: 3,
  notFound: 4,
  invalid: 5,
  unavailable: 6,
} as const;

/** Service endpoints resolved from flags and environment. */
export interface Endpoints {
  /** REST and live host ({api_url}). */
  apiUrl: string;
  /** Speech socket host ({ws_url}), `ws://` or `wss://`. */
  wsUrl: string;
  /** Dubbing host ({base_url}). */
  dubbingUrl: string;
  apiKey: string | undefined;
  region: 'us' | 'eu';
}

/** Flags every service command accepts. */
export const GLOBAL_OPTIONS = {
  url: { type: 'string' },
  region: { type: 'string' },
  'api-url': { type: 'string' },
  'ws-url': { type: 'string' },
  'dubbing-url': { type: 'string' },
  'api-key': { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies ParseArgsConfig['options'];

/** Help text for {@link GLOBAL_OPTIONS}. */
export const GLOBAL_HELP = `Service options (all commands but serve):
  --url URL          One host for everything (default $VOXPIPE_URL or http://127.0.0.1:8080, the local reference service)
  --region us|eu     Region (default $VOXPIPE_REGION or us); eu uses $VOXPIPE_API_URL_EU / $VOXPIPE_WS_URL_EU when set
  --api-url URL      REST and live host (default $VOXPIPE_API_URL or --url)
  --ws-url URL       Speech socket host (default $VOXPIPE_WS_URL or --url as ws://)
  --dubbing-url URL  Dubbing host (default $VOXPIPE_DUBBING_URL or --url)
  --api-key KEY      API key (default $VOXPIPE_API_KEY)
  --json             Print JSON instead of tables
  -h, --help         Show help
`;

/** Resolves endpoints from parsed flags and `env`. */
export function resolveEndpoints(values: Record<string, unknown>, env: NodeJS.ProcessEnv = process.env): Endpoints {
  const str = (k: string): string | undefined => (typeof values[k] === 'string' ? (values[k] as string) : undefined);
  const region = (str('region') ?? env.VOXPIPE_REGION ?? 'us') as string;
  if (region !== 'us' && region !== 'eu') throw new UsageError(`unknown region '${region}' (use us or eu)`);
  const base = str('url') ?? env.VOXPIPE_URL ?? 'http://127.0.0.1:8080';
  const eu = region === 'eu';
  const apiUrl = str('api-url') ?? (eu ? env.VOXPIPE_API_URL_EU : undefined) ?? env.VOXPIPE_API_URL ?? base;
  const wsUrl = str('ws-url') ?? (eu ? env.VOXPIPE_WS_URL_EU : undefined) ?? env.VOXPIPE_WS_URL ?? base.replace(/^http/, 'ws');
  const dubbingUrl = str('dubbing-url') ?? env.VOXPIPE_DUBBING_URL ?? base;
  return { apiUrl, wsUrl, dubbingUrl, apiKey: str('api-key') ?? env.VOXPIPE_API_KEY, region };
}

/** A command-line mistake: printed with the command's help, exit code 2. */
export class UsageError extends Error {}

/** parseArgs with the global options merged in; unknown flags become {@link UsageError}s. */
export function parseCommand(
  argv: string[],
  options: NonNullable<ParseArgsConfig['options']>,
  allowPositionals = true,
): { values: Record<string, string | boolean | string[] | boolean[] | undefined>; positionals: string[] } {
  try {
    return parseArgs({ args: argv, options: { ...GLOBAL_OPTIONS, ...options }, allowPositionals, strict: true });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

/** Maps an error to an exit code and a one-line message. */
export function describeFailure(error: unknown): { code: number; message: string } {
  if (error instanceof UsageError) return { code: EXIT.usage, message: error.message };
  if (error instanceof VoxpipeError) {
    const code =
      error.code === 'unauthorized' || error.code === 'forbidden'
        ? EXIT.unauthorized
        : error.code === 'not_found'
          ? EXIT.notFound
          : error.code === 'validation_failed' || error.code === 'bad_request' || error.code === 'invalid_argument' || error.code === 'invalid_audio'
            ? EXIT.invalid
            : error.code === 'connection_failed' || error.code === 'timeout'
              ? EXIT.unavailable
              : EXIT.failure;
    return { code, message: `${error.message} [${error.code}]` };
  }
  return { code: EXIT.failure, message: error instanceof Error ? error.message : String(error) };
}

/** Prints a value as indented JSON. */
export function printJson(value: unknown, out: NodeJS.WritableStream = process.stdout): void {
  out.write(`${JSON.stringify(value, null, 2)}\n`);
}

/** A one-line progress display on a TTY (plain lines otherwise) for long work like dubbing jobs. */
export class Progress {
  readonly #out: NodeJS.WriteStream;
  readonly #tty: boolean;
  #last = '';
  constructor(out: NodeJS.WriteStream = process.stderr) {
    this.#out = out;
    this.#tty = Boolean(out.isTTY);
  }
  /** Shows `text` (only when it changed). */
  update(text: string): void {
    if (text === this.#last) return;
    this.#last = text;
    if (this.#tty) this.#out.write(`\r\x1b[2K${text}`);
    else this.#out.write(`${text}\n`);
  }
  /** Ends the progress line. */
  done(text?: string): void {
    if (text) this.update(text);
    if (this.#tty) this.#out.write('\n');
  }
}
