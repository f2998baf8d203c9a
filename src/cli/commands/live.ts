/** `voxpipe live ...`: live streaming services and the enums that validate their config. */
import { readFile } from 'node:fs/promises';
import { LiveClient } from '../../client/live.js';
import { LIVE_OWN_TTS_ENGINE, type LiveService, type LiveServiceConfig } from '../../protocol/live.js';
import type { Command } from '../command.js';
import { GLOBAL_HELP, parseCommand, printJson, printTable, resolveEndpoints, UsageError } from '../context.js';

const HELP = `Usage:
  voxpipe live create (--file CONFIG.json | --name N --input-type T [--input-url URL] --output-type T [--output-url URL] --lang L [--engine E] [--voice V])
  voxpipe live list [--search TEXT] [--scope all|running|stopped]
  voxpipe live get ID
  voxpipe live update ID --file PATCH.json     (fetch, merge the JSON object into the config, PUT back)
  voxpipe live start ID | stop ID | status ID | delete ID
  voxpipe live enums [build-versions | input-stream-types | output-stream-types INPUT | languages | engines | voices LANG ENGINE]

A service takes one input (HlsPullSource, HlsPushSource, SrtPushSource, SrtPullSource, RtmpPushSource,
CmafIngestSource), outputs compatible with it (see 'live enums output-stream-types INPUT'), and one or more
translations (language, engine, voice). Accounts have a cap on defined services: replace a config with
'update' or remove services with 'delete'.

${GLOBAL_HELP}`;

/** `voxpipe live`. */
export const liveCommand: Command = {
  name: 'live',
  summary: 'Create, list, update, start, stop and delete live services; list enums',
  help: HELP,
  async run(argv) {
    const { values, positionals } = parseCommand(argv, {
      file: { type: 'string' },
      name: { type: 'string' },
      'input-type': { type: 'string' },
      'input-url': { type: 'string' },
      'output-type': { type: 'string' },
      'output-url': { type: 'string' },
      lang: { type: 'string' },
      engine: { type: 'string' },
      voice: { type: 'string' },
      search: { type: 'string' },
      scope: { type: 'string' },
    });
    if (values.help) {
      process.stdout.write(HELP);
      return 0;
    }
    const ep = resolveEndpoints(values);
    const client = new LiveClient({ baseUrl: ep.apiUrl, ...(ep.apiKey ? { apiKey: ep.apiKey } : {}) });
    const json = values.json === true;
    const [sub, ...args] = positionals;
    const id = (): number => {
      const n = Number(args[0]);
      if (!args[0] || !Number.isInteger(n)) throw new UsageError(`live ${sub ?? ''} needs a numeric service ID`);
      return n;
    };
    const show = (service: LiveService): void => {
      if (json) printJson(service);
      else printServices([service]);
    };
    switch (sub) {
      case 'create': {
        show(await client.createService(await configFrom(values)));
        return 0;
      }
      case 'list': {
        const page = await client.listServices({
          ...(typeof values.search === 'string' ? { search: values.search } : {}),
          ...(typeof values.scope === 'string' ? { scope: values.scope as 'all' } : {}),
        });
        if (json) printJson(page);
        else printServices(page.items);
        return 0;
      }
      case 'get':
        printJson(await client.getService(id()));
        return 0;
      case 'update': {
        if (typeof values.file !== 'string') throw new UsageError('live update needs --file PATCH.json');
        const patch = JSON.parse(await readFile(values.file, 'utf8')) as Partial<LiveServiceConfig>;
        show(await client.updateService(id(), (config) => ({ ...config, ...patch })));
        return 0;
      }
      case 'start':
        show(await client.start(id()));
        return 0;
      case 'stop':
        show(await client.stop(id()));
        return 0;
      case 'status':
        printJson(await client.status(id()));
        return 0;
      case 'delete':
        await client.deleteService(id());
        if (!json) process.stdout.write(`deleted ${args[0]}\n`);
        return 0;
      case 'enums':
        return enums(client, args, json);
      default:
        throw new UsageError(sub ? `unknown live command '${sub}'` : 'live needs a command: create, list, get, update, start, stop, status, delete or enums');
    }
  },
};

async function configFrom(values: Record<string, unknown>): Promise<LiveServiceConfig> {
  if (typeof values.file === 'string') return JSON.parse(await readFile(values.file, 'utf8')) as LiveServiceConfig;
  const need = (k: string): string => {
    const v = values[k];
    if (typeof v !== 'string') throw new UsageError(`live create needs --file or --${k}`);
    return v;
  };
  return {
    name: need('name'),
    input: { type: need('input-type'), ...(typeof values['input-url'] === 'string' ? { url: values['input-url'] } : {}) },
    outputs: [{ type: need('output-type'), ...(typeof values['output-url'] === 'string' ? { url: values['output-url'] } : {}) }],
    translations: [{ language: need('lang'), ttsEngine: typeof values.engine === 'string' ? values.engine : LIVE_OWN_TTS_ENGINE, voice: need('voice') }],
  };
}

async function enums(client: LiveClient, args: string[], json: boolean): Promise<number> {
  const [which, a, b] = args;
  const list = (items: unknown): number => {
    if (json || !Array.isArray(items)) printJson(items);
    else process.stdout.write(`${items.map((i) => (typeof i === 'string' ? i : JSON.stringify(i))).join('\n')}\n`);
    return 0;
  };
  switch (which) {
    case 'build-versions':
      return list(await client.buildVersions());
    case 'input-stream-types':
    case undefined:
      return list(await client.inputStreamTypes());
    case 'output-stream-types':
      if (!a) throw new UsageError('live enums output-stream-types needs an input stream type');
      return list(await client.outputStreamTypes(a));
    case 'languages':
      return list(await client.translationLanguages());
    case 'engines':
      return list(await client.ttsEngines());
    case 'voices':
      if (!a || !b) throw new UsageError('live enums voices needs LANG and ENGINE');
      return list(await client.ttsVoices(a, b));
    default:
      throw new UsageError(`unknown enum '${which}'`);
  }
}

function printServices(services: LiveService[]): void {
  printTable(
    services.map((s) => ({ id: s.id, name: s.config.name, state: s.state, input: s.config.input.type, outputs: s.config.outputs.map((o) => o.type).join(','), languages: s.config.translations.map((t) => t.language).join(',') })),
    false,
  );
}
