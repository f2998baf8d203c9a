/** Starts a throwaway reference server on a loopback port for a test file. */
import { startServer, type RunningServer, type ServerOptions } from '../../src/server/app.js';

/** The API key every test server accepts. */
export const TEST_API_KEY = 'dd-0123456789abcdef0123456789abcdef';

/** Starts a server on 127.0.0.1:0 with in-memory state and the deterministic engine, unless overridden. */
export function startTestServer(options: ServerOptions = {}): Promise<RunningServer> {
  return startServer({ port: 0, host: '127.0.0.1', dataDir: ':memory:', engine: 'builtin', apiKeys: [TEST_API_KEY], ...options });
}

/** The `ws://` base of a running server. */
export function wsBase(server: RunningServer): string {
  return server.url.replace(/^http/, 'ws');
}
