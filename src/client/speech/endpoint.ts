/**
 * Where a service socket lives: an explicit URL, a base URL, or a region picked from caller-provided US/EU
 * hosts. There is no hidden default host; `http(s)` bases become `ws(s)`.
 */
import { InvalidArgumentError } from '../../errors.js';

/** Regions the hosted service is provisioned in. */
export type Region = 'us' | 'eu';

/** How a socket endpoint is found. Give `url`, or `baseUrl`, or `region` with `hosts`. */
export interface SocketEndpointOptions {
  /** Complete socket URL including its path, e.g. `ws://127.0.0.1:8080/ws`. Wins over everything else. */
  url?: string;
  /** Host base (`ws`, `wss`, `http` or `https`); the socket path is appended. */
  baseUrl?: string;
  /** Region whose host in `hosts` is used when no `url`/`baseUrl` is given. */
  region?: Region;
  /** Base URL per region, provided by the caller (e.g. from the account manager). */
  hosts?: Partial<Record<Region, string>>;
}

/** Resolves the socket URL for `path` (e.g. `/ws`, `/open`); throws {@link InvalidArgumentError} when nothing usable was given. */
export function resolveSocketUrl(options: SocketEndpointOptions, path: string): URL {
  if (options.url) return toWsUrl(options.url, 'url');
  const base = options.baseUrl ?? (options.region ? options.hosts?.[options.region] : undefined);
  if (!base) {
    throw new InvalidArgumentError(
      options.region ? `no host configured for region ${options.region}` : 'a url, a baseUrl, or a region with hosts is required (there is no default host)',
    );
  }
  const url = toWsUrl(base, 'baseUrl');
  url.pathname = url.pathname.replace(/\/+$/, '') + path;
  return url;
}

/** Adds the API key as the `x-api-key` query parameter (the socket alternative to the header). */
export function withQueryKey(url: URL, apiKey: string): URL {
  const copy = new URL(url);
  copy.searchParams.set('x-api-key', apiKey);
  return copy;
}

function toWsUrl(text: string, name: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new InvalidArgumentError(`${name} is not a valid URL: ${text}`);
  }
  if (url.protocol === 'http:') url.protocol = 'ws:';
  else if (url.protocol === 'https:') url.protocol = 'wss:';
  if (url.protocol !== 'ws:' && url.protocol !== 'wss:') throw new InvalidArgumentError(`${name} must be ws(s) or http(s): ${text}`);
  return url;
}
