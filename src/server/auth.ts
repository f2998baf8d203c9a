/**
 * API key authentication for every surface of the reference service: HTTP header `x-api-key`, and for
 * sockets also the `?x-api-key=` query parameter. Keys map to accounts of the service config.
 */
import { randomBytes } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { AccountConfig, ServiceConfig } from './config.js';

/** Pattern of keys issued by the hosted service: `dd-` + 32 hex characters. */
export const API_KEY_PATTERN = /^dd-[0-9a-f]{32}$/;

/** Generates a development key in the hosted service's format. */
export function generateApiKey(): string {
  return `dd-${randomBytes(16).toString('hex')}`;
}

/** Resolves API keys to accounts. */
export class Authenticator {
  readonly #byKey = new Map<string, AccountConfig>();

  /** `extraKeys` (from the command line or `VOXPIPE_API_KEYS`) belong to the first configured account. */
  constructor(config: ServiceConfig, extraKeys: readonly string[]) {
    const first = config.accounts[0];
    if (!first) throw new Error('service config has no account');
    for (const account of config.accounts) for (const key of account.apiKeys) this.#byKey.set(key, account);
    for (const key of extraKeys) this.#byKey.set(key, first);
  }

  /** Every key that authenticates. */
  get keys(): string[] {
    return [...this.#byKey.keys()];
  }

  /** The account of `key`, or undefined when the key is missing or unknown. */
  account(key: string | undefined | null): AccountConfig | undefined {
    return key ? this.#byKey.get(key) : undefined;
  }

  /** Extracts the key from headers, or (when `allowQuery`) from the `x-api-key` query parameter. */
  static keyFrom(headers: IncomingHttpHeaders, url: URL | undefined, allowQuery: boolean): string | undefined {
    const header = headers['x-api-key'];
    const value = Array.isArray(header) ? header[0] : header;
    if (value) return value;
    if (allowQuery && url) return url.searchParams.get('x-api-key') ?? undefined;
    return undefined;
  }
}
