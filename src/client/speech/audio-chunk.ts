/** The audio chunk a turn delivers, decoded from the wire message, and strict base64 decoding. */
import { ProtocolError } from '../../errors.js';
import type { AudioChunkMessage } from '../../protocol/speech.js';

/** One chunk of a turn's audio, in arrival order. */
export interface AudioChunk {
  /** Turn the chunk belongs to (from 1 per session). */
  turnId: number;
  /** Generation (segment) the chunk belongs to; a turn may have several. */
  generationId: string;
  /** Chunk index within the generation, from 0 (undefined when the server omitted it on a closing chunk). */
  index: number | undefined;
  /** Decoded audio bytes in the session's format; empty on closing chunks. */
  data: Buffer<ArrayBuffer>;
  /** Last chunk of its generation. Not the end of the turn: see `isFinal`. */
  isFinished: boolean;
  /** Last chunk of the whole turn (only after `end()`). */
  isFinal: boolean;
  /** Diacritized text of the generation's segment, on its first chunk when `outputDiacritized` is on. */
  diacritized?: string;
  /** `performance.now()` when the chunk was received. */
  receivedAt: number;
}

const EMPTY = Buffer.alloc(0);

/** Decodes base64 and rejects anything Node would silently skip (bad characters, whitespace, bad length). */
export function decodeBase64Strict(text: string): Buffer<ArrayBuffer> | undefined {
  if (text.length === 0) return EMPTY;
  if (text.length % 4 === 1) return undefined;
  const pad = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0;
  const buf = Buffer.from(text, 'base64');
  return buf.length === Math.floor(((text.length - pad) * 3) / 4) ? buf : undefined;
}

/** Builds the {@link AudioChunk} of a wire chunk; throws {@link ProtocolError} when `data` is not valid base64. */
export function toAudioChunk(turnId: number, message: AudioChunkMessage, receivedAt: number): AudioChunk {
  const data = message.data === undefined ? EMPTY : decodeBase64Strict(message.data);
  if (!data) throw new ProtocolError(`audio chunk ${message.index ?? '?'} of generation ${message.generationId} is not valid base64`, { body: { generationId: message.generationId, index: message.index } });
  const chunk: AudioChunk = {
    turnId,
    generationId: message.generationId,
    index: message.index,
    data,
    isFinished: message.isFinished,
    isFinal: message.isFinal === true,
    receivedAt,
  };
  if (message.diacritized !== undefined) chunk.diacritized = message.diacritized;
  return chunk;
}
