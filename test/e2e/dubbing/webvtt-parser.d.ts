/** Types of the parts of `webvtt-parser` (W3C's WebVTT parser and validator) the dubbing tests use. */
declare module 'webvtt-parser' {
  /** One parse error: line/column and message. */
  export interface WebVTTParseError {
    message: string;
    line: number;
    col: number;
  }
  /** One parsed cue (times in seconds). */
  export interface WebVTTCue {
    id: string;
    startTime: number;
    endTime: number;
    text: string;
  }
  /** Parses WebVTT and reports every deviation from the specification. */
  export class WebVTTParser {
    parse(input: string, mode?: 'subtitles/captions/descriptions' | 'metadata' | 'chapters'): { cues: WebVTTCue[]; errors: WebVTTParseError[] };
  }
}
