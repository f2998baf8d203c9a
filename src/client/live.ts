/**
 * Client of the live API (`/live/services`, `/live/enums`): CRUD, status, start/stop, the enum endpoints, and
 * {@link LiveClient.updateService}, the recommended fetch-modify-PUT update flow. Failures are typed errors from
 * `errors.ts`; an invalid config is a `ValidationError` whose `upstream` holds the provider's original error, and the
 * per-account cap is a `PermissionDeniedError` whose body `code` is `service_cap_reached`.
 */
import { z } from 'zod';
import {
  liveEngineListSchema,
  liveEnumListSchema,
  liveServiceListSchema,
  liveServiceSchema,
  liveStatusSchema,
  liveVoicesResponseSchema,
  type LiveService,
  type LiveServiceConfig,
  type LiveServiceList,
  type LiveStatus,
  type LiveVoicesResponse,
} from '../protocol/live.js';
import { HttpClient, type HttpClientOptions } from './http.js';
import { expectResponse } from './response.js';

/** Per-call options. */
export interface LiveCallOptions {
  signal?: AbortSignal;
}

/** Query of {@link LiveClient.listServices}. */
export interface LiveListQuery {
  /** 1-based page. */
  page?: number;
  perPage?: number;
  /** Case-insensitive substring of the service name. */
  search?: string;
  scope?: 'all' | 'running' | 'stopped';
}

/** Typed client of the live API. */
export class LiveClient {
  readonly #http: HttpClient;

  /** Takes the shared HTTP options (base URL, key, retries) or an existing {@link HttpClient}. */
  constructor(options: HttpClientOptions | HttpClient) {
    this.#http = options instanceof HttpClient ? options : new HttpClient(options);
  }

  async #get<S extends z.ZodType>(schema: S, path: string, what: string, options: LiveCallOptions, query?: Record<string, string | number | undefined>): Promise<z.output<S>> {
    const body = await this.#http.request<unknown>({ method: 'GET', path, signal: options.signal, ...(query ? { query } : {}) });
    return expectResponse(schema, body, what);
  }

  async #send(method: 'POST' | 'PUT', path: string, body: unknown, what: string, options: LiveCallOptions, retry: boolean): Promise<LiveService> {
    const res = await this.#http.request<unknown>({ method, path, body, signal: options.signal, ...(retry ? {} : { maxRetries: 0 }) });
    return expectResponse(liveServiceSchema, res, what);
  }

  /** One page of the account's services. */
  listServices(query: LiveListQuery = {}, options: LiveCallOptions = {}): Promise<LiveServiceList> {
    return this.#get(liveServiceListSchema, '/live/services', 'live service list', options, { ...query });
  }

  /** One service with its full config. */
  getService(id: number, options: LiveCallOptions = {}): Promise<LiveService> {
    return this.#get(liveServiceSchema, `/live/services/${id}`, 'live service', options);
  }

  /** Creates a service (stopped). Never retried: a repeat would use a second slot. */
  createService(config: LiveServiceConfig, options: LiveCallOptions = {}): Promise<LiveService> {
    return this.#send('POST', '/live/services', config, 'live service create', options, false);
  }

  /** Replaces a service's config in place (no new slot); a running service restarts with it. */
  replaceService(id: number, config: LiveServiceConfig, options: LiveCallOptions = {}): Promise<LiveService> {
    return this.#send('PUT', `/live/services/${id}`, config, 'live service replace', options, true);
  }

  /** The recommended update flow: fetches the service, applies `modify` to a copy of its config, PUTs the result. */
  async updateService(id: number, modify: (config: LiveServiceConfig) => LiveServiceConfig | Promise<LiveServiceConfig>, options: LiveCallOptions = {}): Promise<LiveService> {
    const current = await this.getService(id, options);
    return this.replaceService(id, await modify(structuredClone(current.config)), options);
  }

  /** Deletes a service, freeing its slot. */
  async deleteService(id: number, options: LiveCallOptions = {}): Promise<void> {
    await this.#http.request<void>({ method: 'DELETE', path: `/live/services/${id}`, responseType: 'none', signal: options.signal });
  }

  /** Runtime status: state, input connected, caption playlist URL per language, last error. */
  status(id: number, options: LiveCallOptions = {}): Promise<LiveStatus> {
    return this.#get(liveStatusSchema, `/live/services/${id}/status`, 'live status', options);
  }

  /** Starts a service (idempotent). */
  start(id: number, options: LiveCallOptions = {}): Promise<LiveService> {
    return this.#send('POST', `/live/services/${id}/start`, undefined, 'live service start', options, true);
  }

  /** Stops a service (idempotent). */
  stop(id: number, options: LiveCallOptions = {}): Promise<LiveService> {
    return this.#send('POST', `/live/services/${id}/stop`, undefined, 'live service stop', options, true);
  }

  /** Pipeline build versions. */
  async buildVersions(options: LiveCallOptions = {}): Promise<string[]> {
    return (await this.#get(liveEnumListSchema, '/live/enums/build-versions', 'build versions', options)).items;
  }

  /** Input stream type identifiers. */
  async inputStreamTypes(options: LiveCallOptions = {}): Promise<string[]> {
    return (await this.#get(liveEnumListSchema, '/live/enums/input-stream-types', 'input stream types', options)).items;
  }

  /** Output types compatible with `inputStreamType`. */
  async outputStreamTypes(inputStreamType: string, options: LiveCallOptions = {}): Promise<string[]> {
    return (await this.#get(liveEnumListSchema, `/live/enums/output-stream-types/${encodeURIComponent(inputStreamType)}`, 'output stream types', options)).items;
  }

  /** Target languages of live translation. */
  async translationLanguages(options: LiveCallOptions = {}): Promise<string[]> {
    return (await this.#get(liveEnumListSchema, '/live/enums/translation-languages', 'translation languages', options)).items;
  }

  /** Speech engines, with whether each is enabled for the account. */
  async ttsEngines(options: LiveCallOptions = {}): Promise<Array<{ id: string; thirdParty: boolean; enabled: boolean }>> {
    return (await this.#get(liveEngineListSchema, '/live/enums/translation-tts-engines', 'tts engines', options)).items;
  }

  /** Voices of a language and engine: `{items}` for the service's own engine, `{voices}` for third-party ones. */
  ttsVoices(language: string, ttsEngine: string, options: LiveCallOptions = {}): Promise<LiveVoicesResponse> {
    const path = `/live/enums/translation-tts-voices/${encodeURIComponent(language)}/${encodeURIComponent(ttsEngine)}`;
    return this.#get(liveVoicesResponseSchema, path, 'tts voices', options);
  }
}
