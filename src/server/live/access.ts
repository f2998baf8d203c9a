/**
 * Who may use the live API: a known key (401 otherwise), an account with the `live` feature (403), and, when the
 * server has a region (`VOXPIPE_REGION=us|eu`), an account provisioned in that region — a live key works only
 * against its own region, so a key of another region is refused like an unknown one (401).
 */
import type { AccountConfig } from '../config.js';
import type { ServerContext } from '../context.js';

/** The decision for one key. */
export type LiveAccess = { account: AccountConfig } | { status: 401 | 403; code: 'unauthorized' | 'forbidden'; message: string };

/** Decides live access for `key` on a server of `region` (undefined: any region). */
export function liveAccess(ctx: ServerContext, key: string | undefined, region: string | undefined): LiveAccess {
  const account = ctx.auth.account(key);
  if (!account) return { status: 401, code: 'unauthorized', message: 'missing or invalid API key' };
  if (region !== undefined && account.region !== region) {
    return { status: 401, code: 'unauthorized', message: `this key belongs to the ${account.region} region; use the ${account.region} live host` };
  }
  if (!account.features.includes('live')) return { status: 403, code: 'forbidden', message: 'the live API is not enabled for this account' };
  return { account };
}

/** The server's region from `VOXPIPE_REGION`, if set. */
export function serverRegion(env: NodeJS.ProcessEnv = process.env): string | undefined {
  return env.VOXPIPE_REGION || undefined;
}
