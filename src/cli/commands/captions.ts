/** `voxpipe captions follow`: follows a live service's captions socket, printing cues and optionally writing SRT/WebVTT. */
import { writeFile } from 'node:fs/promises';
import { CaptionsFollower, writeCaptions, type FollowedCue } from '../../client/captions-follower.js';
import type { Command } from '../command.js';
import { GLOBAL_HELP, parseCommand, resolveEndpoints, UsageError } from '../context.js';

const HELP = `Usage: voxpipe captions follow SERVICE_ID --lang L [--playlist-url URL] [--srt FILE | --vtt FILE] [--count N] [--seconds S]

Follows the live captions of a service (reconnecting and resuming without duplicates) and prints each cue with
its delay. Stops on Ctrl-C, after --count cues, or after --seconds; --srt / --vtt then write what was received.

${GLOBAL_HELP}`;

/** `voxpipe captions`. */
export const captionsCommand: Command = {
  name: 'captions',
  summary: 'Follow a live service captions socket (print cues, write SRT/WebVTT)',
  help: HELP,
  async run(argv) {
    const { values, positionals } = parseCommand(argv, {
      lang: { type: 'string' },
      'playlist-url': { type: 'string' },
      srt: { type: 'string' },
      vtt: { type: 'string' },
      count: { type: 'string' },
      seconds: { type: 'string' },
    });
    if (values.help) {
      process.stdout.write(HELP);
      return 0;
    }
    const [sub, idText] = positionals;
    if (sub !== 'follow') throw new UsageError(sub ? `unknown captions command '${sub}'` : 'captions needs a command: follow');
    const serviceId = Number(idText);
    if (!idText || !Number.isInteger(serviceId)) throw new UsageError('captions follow needs a numeric SERVICE_ID');
    if (typeof values.lang !== 'string') throw new UsageError('captions follow needs --lang');
    const count = values.count === undefined ? Infinity : Number(values.count);
    const ep = resolveEndpoints(values);
    const controller = new AbortController();
    const stop = (): void => controller.abort();
    process.once('SIGINT', stop);
    const timer = values.seconds === undefined ? undefined : setTimeout(stop, Number(values.seconds) * 1000);
    const follower = new CaptionsFollower({
      baseUrl: ep.apiUrl,
      ...(ep.apiKey ? { apiKey: ep.apiKey } : {}),
      serviceId,
      lang: values.lang,
      ...(typeof values['playlist-url'] === 'string' ? { playlistUrl: values['playlist-url'] } : {}),
      signal: controller.signal,
      onFrame: (frame) => {
        if (frame.type === 'hello') process.stderr.write(`following ${frame.playlistUrl}\n`);
        if (frame.type === 'error') process.stderr.write(`service: ${frame.message}\n`);
      },
      onReconnect: (attempt, reason) => process.stderr.write(`reconnecting (attempt ${attempt}): ${reason instanceof Error ? reason.message : String(reason)}\n`),
    });
    const cues: FollowedCue[] = [];
    try {
      for await (const cue of follower) {
        cues.push(cue);
        if (values.json) process.stdout.write(`${JSON.stringify(cue)}\n`);
        else process.stdout.write(`${cue.seq}\t${cue.start.toFixed(3)} --> ${cue.end.toFixed(3)}\t${cue.text.replace(/\n/g, ' / ')}\t(${Math.round(cue.delayMs)} ms)\n`);
        if (cues.length >= count) break;
      }
    } catch (error) {
      if (!controller.signal.aborted) throw error;
    } finally {
      process.off('SIGINT', stop);
      if (timer) clearTimeout(timer);
    }
    for (const [format, file] of [['srt', values.srt], ['vtt', values.vtt]] as const) {
      if (typeof file !== 'string') continue;
      let text = '';
      await writeCaptions(cues, format, (chunk) => {
        text += chunk;
      });
      await writeFile(file, text);
    }
    const s = follower.stats();
    process.stderr.write(`${s.cues} cues, ${s.duplicatesDropped} duplicates dropped, ${s.reconnects} reconnects; delay p50 ${Math.round(s.delay.p50)} ms, p95 ${Math.round(s.delay.p95)} ms\n`);
    return 0;
  },
};
