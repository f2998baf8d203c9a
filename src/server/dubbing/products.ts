/**
 * Text deliverables rendered from a job's segments (target dialogue, timing, characters):
 * `SRT` (SubRip), `SDH` (SubRip with `[Speaker]` labels), `WEBVTT`, `ITT_SUBTITLES` (TTML / iTunes Timed Text),
 * `TRANSCRIPT` (timed plain text), `AS_RECORDED_SCRIPT` (CSV of source and target dialogue per segment) and
 * `AUDIO_HINTS` (JSON timing hints per segment). `SOURCE_VIDEO` and `SOURCE_AUDIO` are not produced here.
 */
import type { DubbingProductType, DubbingSegment } from '../../protocol/dubbing.js';

/** Products {@link renderProduct} can produce. */
export const RENDERABLE_PRODUCTS: ReadonlySet<DubbingProductType> = new Set(['SRT', 'SDH', 'WEBVTT', 'ITT_SUBTITLES', 'TRANSCRIPT', 'AS_RECORDED_SCRIPT', 'AUDIO_HINTS']);

/** What a product is rendered from. */
export interface ProductInput {
  segments: readonly DubbingSegment[];
  targetLocale: string;
  sourceLocale: string;
  titleName?: string | undefined;
}

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

/** `HH:MM:SS<sep>mmm`. */
export function timecode(ms: number, separator: ',' | '.'): string {
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor(ms / 60_000) % 60;
  const s = Math.floor(ms / 1000) % 60;
  return `${pad(h)}:${pad(m)}:${pad(s)}${separator}${pad(ms % 1000, 3)}`;
}

/** Subtitle lines of a text: line breaks kept, blank lines (which would end a cue) dropped. */
function cueLines(text: string): string[] {
  return text
    .split(/\r\n|\r|\n/)
    .map((l) => l.trim())
    .filter((l) => l.length > 0);
}

/** Segments that carry target dialogue, in time order. */
export function dubbedSegments(segments: readonly DubbingSegment[]): DubbingSegment[] {
  return segments.filter((s) => cueLines(s.targetDialogue ?? '').length > 0).sort((a, b) => a.timestampStart - b.timestampStart || a.timestampEnd - b.timestampEnd);
}

function srt(input: ProductInput, speakerLabels: boolean): string {
  return dubbedSegments(input.segments)
    .map((s, i) => {
      const lines = cueLines(s.targetDialogue ?? '');
      if (speakerLabels && s.characterName.trim()) lines[0] = `[${s.characterName.trim()}] ${lines[0] ?? ''}`;
      return `${i + 1}\n${timecode(s.timestampStart, ',')} --> ${timecode(s.timestampEnd, ',')}\n${lines.join('\n')}\n`;
    })
    .join('\n');
}

const escapeVtt = (line: string): string => line.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const escapeXml = (text: string): string => escapeVtt(text).replace(/"/g, '&quot;');

function webVtt(input: ProductInput): string {
  const cues = dubbedSegments(input.segments).map((s, i) => {
    const voice = s.characterName.trim() ? `<v ${escapeVtt(s.characterName.trim())}>` : '';
    const lines = cueLines(s.targetDialogue ?? '').map(escapeVtt);
    return `${s.segmentId ? s.segmentId.replace(/-->/g, '--').replace(/[\r\n]+/g, ' ') : String(i + 1)}\n${timecode(s.timestampStart, '.')} --> ${timecode(s.timestampEnd, '.')}\n${voice}${lines.join('\n')}\n`;
  });
  return `WEBVTT\n\n${cues.join('\n')}`;
}

function ttml(input: ProductInput): string {
  const paragraphs = dubbedSegments(input.segments).map(
    (s) => `      <p begin="${timecode(s.timestampStart, '.')}" end="${timecode(s.timestampEnd, '.')}">${cueLines(s.targetDialogue ?? '').map(escapeXml).join('<br/>')}</p>`,
  );
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<tt xmlns="http://www.w3.org/ns/ttml" xml:lang="${input.targetLocale}">`,
    '  <body>',
    '    <div>',
    ...paragraphs,
    '    </div>',
    '  </body>',
    '</tt>',
    '',
  ].join('\n');
}

function transcript(input: ProductInput): string {
  const title = input.titleName ? `${input.titleName} (${input.targetLocale})\n\n` : '';
  return (
    title +
    dubbedSegments(input.segments)
      .map((s) => `[${timecode(s.timestampStart, '.')} - ${timecode(s.timestampEnd, '.')}] ${s.characterName.trim() || s.characterId}: ${cueLines(s.targetDialogue ?? '').join(' ')}\n`)
      .join('')
  );
}

const csvField = (value: string): string => (/[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);

function asRecordedScript(input: ProductInput): string {
  const header = ['segmentId', 'start', 'end', 'characterId', 'characterName', `sourceDialogue (${input.sourceLocale})`, `targetDialogue (${input.targetLocale})`];
  const rows = [...input.segments]
    .sort((a, b) => a.timestampStart - b.timestampStart)
    .map((s, i) => [s.segmentId ?? String(i + 1), timecode(s.timestampStart, '.'), timecode(s.timestampEnd, '.'), s.characterId, s.characterName, s.sourceDialogue, s.targetDialogue ?? '']);
  return [header, ...rows].map((row) => row.map(csvField).join(',')).join('\r\n') + '\r\n';
}

function audioHints(input: ProductInput): string {
  const hints = [...input.segments]
    .sort((a, b) => a.timestampStart - b.timestampStart)
    .map((s) => ({ segmentId: s.segmentId, characterId: s.characterId, timestampStart: s.timestampStart, timestampEnd: s.timestampEnd, dubbed: Boolean(s.targetDialogue?.trim()) }));
  return `${JSON.stringify({ locale: input.targetLocale, hints }, null, 2)}\n`;
}

/** Renders `product`, or undefined for products this service does not produce. */
export function renderProduct(product: DubbingProductType, input: ProductInput): string | undefined {
  switch (product) {
    case 'SRT':
      return srt(input, false);
    case 'SDH':
      return srt(input, true);
    case 'WEBVTT':
      return webVtt(input);
    case 'ITT_SUBTITLES':
      return ttml(input);
    case 'TRANSCRIPT':
      return transcript(input);
    case 'AS_RECORDED_SCRIPT':
      return asRecordedScript(input);
    case 'AUDIO_HINTS':
      return audioHints(input);
    default:
      return undefined;
  }
}
