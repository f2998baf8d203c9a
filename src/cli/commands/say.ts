/** `voxpipe say`: speak text (arguments or stdin, streamed like LLM tokens) to an audio file or stdout, printing latency. */
import { createWriteStream, type WriteStream } from 'node:fs';
import { encodeWav, encodeWavHeader, WAV_UNKNOWN_SIZE } from '../../audio/wav.js';
import { WavChunkDecoder } from '../../audio/wav-decoder.js';
import { SpeechSession } from '../../client/speech-session.js';
import { pipeTokens } from '../../pipeline/speak.js';
import { AUDIO_FORMATS, normalizeFormat, type StreamConfig } from '../../protocol/speech.js';
import type { Command } from '../command.js';
import { GLOBAL_HELP, parseCommand, printJson, resolveEndpoints, UsageError } from '../context.js';

const HELP = `Usage: voxpipe say [TEXT...] [options]

Speaks TEXT (or standard input, streamed as it arrives, like LLM tokens) with inline tags such as
[happy], <config locale="es-ES"/> and (with --emojis) flag emoji, and writes the audio to --out.
Latency goes to standard error: time to first audio, end-of-text to final chunk, audio vs wall time.

Options:
  --model ID        Model (default dd-etts-3.3)
  --voice ID        voicePromptId
  --locale L        Locale, e.g. en-US
  --format F        ${AUDIO_FORMATS.join(' | ')} (default: from --out's extension, else wav)
  --rate HZ         Sample rate (default 8000 for mulaw, else 48000)
  --out FILE        Output file, or - for stdout (default say.<format>)
  --emojis          Treat flag, globe and emotion emoji as tags
  --no-realtime     Ask for standard priority (faster than real time)

${GLOBAL_HELP}`;

const EXTENSIONS: Record<string, string> = { wav: 'wav', mp3: 'mp3', opus: 'ogg', mulaw: 'ulaw', s16le: 'pcm' };

/** `voxpipe say`. */
export const sayCommand: Command = {
  name: 'say',
  summary: 'Speak text or stdin to an audio file or stdout, printing latency',
  help: HELP,
  async run(argv) {
    const { values, positionals } = parseCommand(argv, {
      model: { type: 'string' },
      voice: { type: 'string' },
      locale: { type: 'string' },
      format: { type: 'string' },
      rate: { type: 'string' },
      out: { type: 'string' },
      emojis: { type: 'boolean' },
      'no-realtime': { type: 'boolean' },
    });
    if (values.help) {
      process.stdout.write(HELP);
      return 0;
    }
    const out = typeof values.out === 'string' ? values.out : undefined;
    const fromExtension = out ? Object.entries(EXTENSIONS).find(([, ext]) => out.endsWith(`.${ext}`))?.[0] : undefined;
    const requested = typeof values.format === 'string' ? values.format : (fromExtension ?? 'wav');
    if (!(AUDIO_FORMATS as readonly string[]).includes(requested)) throw new UsageError(`unknown format '${requested}' (use ${AUDIO_FORMATS.join(', ')})`);
    const format = normalizeFormat(requested);
    const rate = values.rate === undefined ? undefined : Number(values.rate);
    if (rate !== undefined && !Number.isInteger(rate)) throw new UsageError(`--rate must be an integer, got ${String(values.rate)}`);
    const target = out ?? `say.${EXTENSIONS[format]}`;
    const text = positionals.join(' ');
    if (!text && process.stdin.isTTY) throw new UsageError('give TEXT or pipe text on standard input');

    const ep = resolveEndpoints(values);
    const config: StreamConfig = {
      model: typeof values.model === 'string' ? values.model : 'dd-etts-3.3',
      format,
      realtime: values['no-realtime'] !== true,
      ...(rate !== undefined ? { sampleRate: rate } : {}),
      ...(typeof values.voice === 'string' ? { voicePromptId: values.voice } : {}),
      ...(typeof values.locale === 'string' ? { locale: values.locale } : {}),
      ...(values.emojis ? { acceptEmojis: true } : {}),
    };
    const session = await SpeechSession.connect({ baseUrl: ep.wsUrl, ...(ep.apiKey ? { apiKey: ep.apiKey } : {}), config, reconnect: false, pingIntervalMs: 0 });
    const sink: NodeJS.WritableStream | WriteStream = target === '-' ? process.stdout : createWriteStream(target);
    try {
      const turn = session.turn();
      const source: AsyncIterable<string> | string = text || (process.stdin.setEncoding('utf8') as AsyncIterable<string>);
      const piping = pipeTokens(turn, source, { config });
      const wav = format === 'wav' ? new WavChunkDecoder() : undefined;
      const pcm: Int16Array[] = [];
      let sampleRate = rate ?? 48000;
      let headerWritten = false;
      for await (const chunk of turn.audio()) {
        if (chunk.data.length === 0) continue;
        if (!wav) {
          sink.write(chunk.data);
          continue;
        }
        for (const block of wav.push(chunk.data)) {
          sampleRate = block.sampleRate;
          if (target === '-') {
            // Streaming to stdout: one header of unknown size, then samples as they come.
            if (!headerWritten) sink.write(encodeWavHeader(WAV_UNKNOWN_SIZE, sampleRate));
            headerWritten = true;
            sink.write(Buffer.from(block.samples.buffer, block.samples.byteOffset, block.samples.byteLength));
          } else pcm.push(block.samples);
        }
      }
      await piping;
      if (wav && target !== '-') {
        const all = new Int16Array(pcm.reduce((n, p) => n + p.length, 0));
        let at = 0;
        for (const p of pcm) {
          all.set(p, at);
          at += p.length;
        }
        sink.write(encodeWav(all, sampleRate));
      }
      const m = await turn.done;
      const fmt = (v: number | undefined): string => (v === undefined ? '-' : `${v.toFixed(1)} ms`);
      // With audio on stdout, the report goes to stderr.
      if (values.json) printJson({ out: target, ...m }, target === '-' ? process.stderr : process.stdout);
      else {
        process.stderr.write(
          `time to first audio ${fmt(m.ttfaFromFirstTextMs)} (from first token ${fmt(m.ttfaFromFirstTokenMs)}), end-stream to final ${fmt(m.endToFinalMs)}, ` +
            `${(m.audioMs / 1000).toFixed(2)} s of audio in ${(m.wallMs / 1000).toFixed(2)} s, ${m.generationCount} generation(s)${target === '-' ? '' : ` -> ${target}`}\n`,
        );
      }
    } finally {
      await session.close();
      if (sink !== process.stdout) await new Promise<void>((resolve) => (sink as WriteStream).end(resolve));
    }
    return 0;
  },
};
