/**
 * The captions socket `/live/services/{id}/captions/ws?lang=&playlist_url=` (key by header or `?x-api-key=`).
 * Handshake: 401 bad key (or a key of another region), 403 live not enabled, 404 unknown service, 400 missing `lang` or bad `playlist_url`.
 * It follows `playlist_url`, else the service's own caption output for `lang`, and sends `hello` (with the resolved
 * subtitle playlist URL), `cue` frames (with the `availableAt`/`programDateTime` extensions), `heartbeat` when
 * nothing was sent for `heartbeatMs`, and `error` frames for playlist problems (the socket stays open). At `#EXT-X-ENDLIST` it closes with {@link CAPTIONS_CLOSE_ENDED}; when the
 * service is deleted, at the next heartbeat with {@link CAPTIONS_CLOSE_GONE}.
 */
import type { WebSocket } from 'ws';
import { CAPTIONS_CLOSE_ENDED, CAPTIONS_CLOSE_GONE, CAPTIONS_ENDED_REASON, type CaptionsFrame } from '../../protocol/captions.js';
import { Authenticator } from '../auth.js';
import type { ServerContext } from '../context.js';
import { liveAccess } from './access.js';
import { captionsPlaylistPath } from './caption-output.js';
import { followCaptions } from './hls-follower.js';
import type { LiveServiceStore } from './store.js';

/** Socket settings. */
export interface CaptionsSocketSettings {
  /** The server's region; keys of other regions are refused (see {@link liveAccess}). */
  region: string | undefined;
  heartbeatMs: number;
  reloadMs: number | undefined;
}

interface Accepted {
  accountId: string;
  serviceId: number;
  lang: string;
  /** What the socket follows. */
  url: string;
  /** For the service's own output: its public URL (from `Host`), shown instead of `url`, which is the address the connection came in on. */
  shownUrl: string | undefined;
}

/** A socket whose send buffer exceeds this is dropped (slow consumer). */
const MAX_BUFFERED_BYTES = 1024 * 1024;
const PATH = /^\/live\/services\/([^/]+)\/captions\/ws$/;

/** Adds the captions socket route to `ctx.ws`. */
export function registerCaptionsSocket(ctx: ServerContext, store: LiveServiceStore, settings: CaptionsSocketSettings): void {
  const log = ctx.logger.child({ area: 'captions' });
  ctx.ws.add<Accepted>({
    match(pathname) {
      const m = PATH.exec(pathname);
      return m ? { id: decodeURIComponent(m[1] ?? '') } : undefined;
    },
    accept(req, url, params) {
      const access = liveAccess(ctx, Authenticator.keyFrom(req.headers, url, true), settings.region);
      if ('status' in access) return { reject: access.status, message: access.message };
      const { account } = access;
      const id = params.id ?? '';
      const service = /^\d{1,15}$/.test(id) ? store.get(account.id, Number(id)) : undefined;
      if (!service) return { reject: 404, message: `live service ${id} not found` };
      const lang = url.searchParams.get('lang')?.trim();
      if (!lang) return { reject: 400, message: 'lang query parameter is required' };
      const explicit = url.searchParams.get('playlist_url');
      if (explicit !== null && !/^https?:\/\//.test(explicit)) return { reject: 400, message: 'playlist_url must be an http(s) URL' };
      const accepted = { accountId: account.id, serviceId: service.id, lang };
      if (explicit !== null) return { accept: { ...accepted, url: explicit, shownUrl: undefined } };
      // The server reaches its own output at the local address (the Host may be a proxy's or a mapped port).
      const path = captionsPlaylistPath(service.id, lang);
      const local = req.socket.localAddress ?? '127.0.0.1';
      const self = `${local.includes(':') ? `[${local}]` : local}:${req.socket.localPort ?? 80}`;
      return { accept: { ...accepted, url: `http://${self}${path}`, shownUrl: `http://${req.headers.host ?? self}${path}` } };
    },
    connected(ws, _req, state) {
      const exists = (): boolean => store.get(state.accountId, state.serviceId) !== undefined;
      void follow(ws, state, settings, exists).catch((error: unknown) => log.error({ err: error }, 'captions socket failed'));
    },
  });
}

async function follow(ws: WebSocket, state: Accepted, settings: CaptionsSocketSettings, exists: () => boolean): Promise<void> {
  const controller = new AbortController();
  ws.on('close', () => controller.abort());
  ws.on('error', () => controller.abort());
  const shown = (text: string): string => (state.shownUrl === undefined ? text : text.replaceAll(state.url, state.shownUrl));
  let lastSent = Date.now();
  let helloSent = false;
  const send = (frame: CaptionsFrame): void => {
    if (ws.readyState !== ws.OPEN) return;
    if (ws.bufferedAmount > MAX_BUFFERED_BYTES) return void ws.terminate();
    ws.send(JSON.stringify(frame));
    lastSent = Date.now();
  };
  const hello = (playlistUrl: string): void => {
    if (helloSent) return;
    helloSent = true;
    send({ type: 'hello', serviceId: state.serviceId, lang: state.lang, playlistUrl });
  };
  const heartbeat = setInterval(() => {
    if (!helloSent || Date.now() - lastSent < settings.heartbeatMs) return;
    if (exists()) send({ type: 'heartbeat' });
    else ws.close(CAPTIONS_CLOSE_GONE, 'service deleted');
  }, Math.max(10, Math.floor(settings.heartbeatMs / 4)));
  let seq = 0;
  try {
    for await (const event of followCaptions({ url: state.url, lang: state.lang, signal: controller.signal, reloadMs: settings.reloadMs })) {
      if (event.type === 'resolved') hello(shown(event.playlistUrl));
      else if (event.type === 'error') {
        hello(shown(state.url));
        send({ type: 'error', message: shown(event.message) });
      } else if (event.type === 'cue') {
        const { cue, availableAt, programDateTime } = event;
        send({ type: 'cue', seq: ++seq, start: cue.start, end: cue.end, text: cue.text, availableAt, ...(programDateTime === undefined ? {} : { programDateTime }) });
      } else if (event.type === 'ended') ws.close(CAPTIONS_CLOSE_ENDED, CAPTIONS_ENDED_REASON);
    }
  } finally {
    clearInterval(heartbeat);
    controller.abort();
  }
}
