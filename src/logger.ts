/**
 * pino logger factory. One root logger per process, one child per session/request; message strings are
 * constant and spoken text is only logged where the session allows it (`enableLogging`).
 */
import { pino, type Logger, type LoggerOptions } from 'pino';

export type { Logger } from 'pino';

/** Creates the root logger. Level comes from `level`, then `VOXPIPE_LOG_LEVEL`, then `info`. */
export function createLogger(options: { level?: string; name?: string } = {}): Logger {
  const opts: LoggerOptions = {
    name: options.name ?? 'voxpipe',
    level: options.level ?? process.env.VOXPIPE_LOG_LEVEL ?? 'info',
  };
  return pino(opts);
}

/** A logger that drops everything (default in the library and in tests). */
export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}
