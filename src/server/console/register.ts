/**
 * The web console at `/`: a static page (web/console/) that talks to the service like any client, plus
 * `GET /console/catalog` (authenticated) listing the models, voices, formats and rates to choose from.
 */
import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { AUDIO_FORMATS, SAMPLE_RATES } from '../../protocol/speech.js';
import { Authenticator } from '../auth.js';
import type { ServerContext } from '../context.js';

/** The console's static files, resolved from the package root (same depth from src/ and dist/). */
const ASSET_DIR = new URL('../../../web/console/', import.meta.url);
const ASSETS: Record<string, string> = {
  'index.html': 'text/html; charset=utf-8',
  'app.js': 'text/javascript; charset=utf-8',
  'style.css': 'text/css; charset=utf-8',
};

/** What `GET /console/catalog` returns. */
export interface ConsoleCatalog {
  models: Array<{ id: string; description: string }>;
  voices: Array<{ voicePromptId: string; name: string; gender: string; locale: string; emotions: string[] }>;
  formats: readonly string[];
  sampleRates: readonly number[];
}

/** Registers the web console at `/` on `app`. */
export function registerConsole(app: FastifyInstance, ctx: ServerContext): void {
  const files = new Map(Object.entries(ASSETS).map(([name, type]) => [name, { type, body: readFileSync(new URL(name, ASSET_DIR)) }]));
  const send = (name: string) => {
    const file = files.get(name);
    if (!file) throw new Error(`missing console asset ${name}`);
    return file;
  };
  app.get('/', (_req, reply) => {
    const file = send('index.html');
    return reply.type(file.type).header('cache-control', 'no-cache').send(file.body);
  });
  app.get<{ Params: { name: string } }>('/console/:name', (req, reply) => {
    const file = files.get(req.params.name);
    if (!file) return reply.code(404).send({ message: 'Not Found' });
    return reply.type(file.type).header('cache-control', 'no-cache').send(file.body);
  });
  app.get('/console/catalog', (req, reply) => {
    const account = ctx.auth.account(Authenticator.keyFrom(req.headers, undefined, false));
    if (!account) return reply.code(401).send({ message: 'unauthorized: invalid or missing API key' });
    const allowed = new Set(account.models);
    const catalog: ConsoleCatalog = {
      models: ctx.config.models.filter((m) => allowed.size === 0 || allowed.has(m.id)).map((m) => ({ id: m.id, description: m.description })),
      voices: ctx.config.voices.map((v) => ({ voicePromptId: v.voicePromptId, name: v.name, gender: v.gender, locale: v.locale, emotions: v.emotions.map((e) => e.name) })),
      formats: AUDIO_FORMATS,
      sampleRates: SAMPLE_RATES,
    };
    return catalog;
  });
}
