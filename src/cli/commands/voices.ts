/** `voxpipe voices upload|list|get|delete`: the voice bank. */
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { VoicesClient } from '../../client/voices.js';
import type { Command } from '../command.js';
import { GLOBAL_HELP, parseCommand, printJson, printTable, resolveEndpoints, UsageError } from '../context.js';

const HELP = `Usage:
  voxpipe voices upload FILE [--title T] [--locale L] [--gender male|female|non_binary] [--age N] [--transcript TEXT]
  voxpipe voices list
  voxpipe voices get ID
  voxpipe voices delete ID

Uploads a voice sample (WAV, MP3, FLAC, Ogg; at most 20 MB as base64) and prints its voice prompt id, which
selects the voice as voicePromptId on the speech socket.

${GLOBAL_HELP}`;

/** `voxpipe voices`. */
export const voicesCommand: Command = {
  name: 'voices',
  summary: 'Upload, list, show and delete voice prompts',
  help: HELP,
  async run(argv) {
    const { values, positionals } = parseCommand(argv, {
      title: { type: 'string' },
      locale: { type: 'string' },
      gender: { type: 'string' },
      age: { type: 'string' },
      transcript: { type: 'string' },
    });
    if (values.help) {
      process.stdout.write(HELP);
      return 0;
    }
    const ep = resolveEndpoints(values);
    const client = new VoicesClient({ baseUrl: ep.apiUrl, ...(ep.apiKey ? { apiKey: ep.apiKey } : {}) });
    const [sub, arg] = positionals;
    const json = values.json === true;
    switch (sub) {
      case 'upload': {
        if (!arg) throw new UsageError('voices upload needs a FILE');
        const data = await readFile(arg);
        const age = values.age === undefined ? undefined : Number(values.age);
        if (age !== undefined && !Number.isInteger(age)) throw new UsageError(`--age must be an integer, got ${String(values.age)}`);
        const id = await client.upload({
          filename: basename(arg),
          data,
          ...(typeof values.title === 'string' ? { title: values.title } : {}),
          ...(typeof values.locale === 'string' ? { locale: values.locale } : {}),
          ...(typeof values.gender === 'string' ? { gender: values.gender.toUpperCase() as 'MALE' } : {}),
          ...(typeof values.transcript === 'string' ? { transcript: values.transcript } : {}),
          ...(age !== undefined ? { age } : {}),
        });
        if (json) printJson({ voice_prompt_id: id });
        else process.stdout.write(`${id}\n`);
        return 0;
      }
      case 'list': {
        const prompts = await client.list();
        printTable(
          prompts.map((p) => ({ id: p.id, title: p.title ?? p.name ?? '', gender: p.gender ?? '', locale: p.locale ?? '', pitchHz: p.pitchHz === undefined ? '' : Math.round(p.pitchHz), seconds: p.durationSeconds?.toFixed(1) ?? '' })),
          json,
        );
        return 0;
      }
      case 'get': {
        if (!arg) throw new UsageError('voices get needs an ID');
        printJson(await client.get(arg));
        return 0;
      }
      case 'delete': {
        if (!arg) throw new UsageError('voices delete needs an ID');
        await client.delete(arg);
        if (!json) process.stdout.write(`deleted ${arg}\n`);
        return 0;
      }
      default:
        throw new UsageError(sub ? `unknown voices command '${sub}'` : 'voices needs a command: upload, list, get or delete');
    }
  },
};
