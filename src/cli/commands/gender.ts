/** `voxpipe gender classify FILE|URL`: speaker gender classification. */
import { readFile } from 'node:fs/promises';
import { GenderClient } from '../../client/gender.js';
import type { Command } from '../command.js';
import { GLOBAL_HELP, parseCommand, printJson, resolveEndpoints, UsageError } from '../context.js';

const HELP = `Usage: voxpipe gender classify FILE|URL

Classifies the speaker's gender of a recording (WAV, MP3, FLAC, Ogg). A URL (http, https, s3) is fetched by the
service; a FILE is sent as base64.

${GLOBAL_HELP}`;

/** `voxpipe gender`. */
export const genderCommand: Command = {
  name: 'gender',
  summary: 'Classify the speaker gender of a file or URL',
  help: HELP,
  async run(argv) {
    const { values, positionals } = parseCommand(argv, {});
    if (values.help) {
      process.stdout.write(HELP);
      return 0;
    }
    const [sub, target] = positionals;
    if (sub !== 'classify') throw new UsageError(sub ? `unknown gender command '${sub}'` : 'gender needs a command: classify');
    if (!target) throw new UsageError('gender classify needs a FILE or URL');
    const ep = resolveEndpoints(values);
    const client = new GenderClient({ baseUrl: ep.apiUrl, ...(ep.apiKey ? { apiKey: ep.apiKey } : {}) });
    const input = /^(https?|s3):\/\//.test(target) ? { audioUrl: target } : { audio: await readFile(target) };
    const result = await client.classify(input);
    if (values.json) printJson(result);
    else {
      const scores = result.prediction ? `; female ${result.prediction.female.toFixed(2)}, male ${result.prediction.male.toFixed(2)}` : '';
      const timing = result.duration_seconds === undefined ? '' : `; ${result.duration_seconds.toFixed(2)} s of audio in ${Math.round(result.processing_time_ms ?? 0)} ms`;
      process.stdout.write(`${result.predicted_gender} (confidence ${result.confidence.toFixed(2)}${scores}${timing})\n`);
    }
    return 0;
  },
};
