/**
 * Streaming WAV decoder for the speech socket's `wav` output: bytes in, 16-bit PCM blocks out. It copes with
 * a complete WAV file per chunk (the hosted service: a 68-byte extensible header on every chunk), one header
 * at the start followed by bare samples, headers split across chunks, and input fed one byte at a time.
 *
 * After a data chunk of declared size ends, the next bytes are either a new `RIFF` header or a trailing chunk
 * (skipped). A data chunk of streaming size (0 or 0xFFFFFFFF) runs to the end. In addition, a block passed to
 * {@link WavChunkDecoder.push} that itself starts with a complete `RIFF…WAVE` header (at a sample boundary)
 * always begins a new file, so per-chunk headers with streaming or wrong data sizes are still stripped when
 * the chunks are pushed as they arrived; split at arbitrary points, such streams cannot be told apart.
 */
import { SampleDecoder, type PcmChunk } from './pcm.js';
import { fourcc, FOURCC_DATA, FOURCC_RIFF, FOURCC_WAVE, scanWavHeader, WavFormatError, type WavHeader } from './wav.js';

/** Longest header (everything before the samples) the decoder buffers, in bytes. */
export const WAV_MAX_HEADER_BYTES = 1 << 20;

type State =
  | { kind: 'header'; buffered: Uint8Array[]; size: number }
  | { kind: 'data'; remaining: number; header: WavHeader; samples: SampleDecoder }
  | { kind: 'between'; buffered: Uint8Array[]; size: number; header: WavHeader }
  | { kind: 'skip'; remaining: number; header: WavHeader };

/** Incremental WAV decoder; push bytes, get PCM. */
export class WavChunkDecoder {
  private state: State = { kind: 'header', buffered: [], size: 0 };
  private last: WavHeader | undefined;

  /** The header of the file being read (undefined before the first header is complete). */
  get header(): WavHeader | undefined {
    return this.last;
  }

  /** Decodes the next block of bytes; returns the PCM it completed (possibly none). Throws {@link WavFormatError}. */
  push(bytes: Uint8Array): PcmChunk[] {
    const out: PcmChunk[] = [];
    if (this.state.kind === 'data' && this.state.samples.pending === 0 && startsWithWavHeader(bytes)) {
      this.state = { kind: 'header', buffered: [], size: 0 };
    }
    // A plain view: slicing a Node Buffer goes through its species constructor, several times slower.
    let input = new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    while (input.length > 0) input = this.step(input, out);
    return out;
  }

  /**
   * Ends the stream. Throws {@link WavFormatError} when it ends inside a header; a partial sample frame at the
   * very end is dropped. The decoder is then ready for a new stream.
   */
  end(): void {
    const state = this.state;
    this.state = { kind: 'header', buffered: [], size: 0 };
    if (state.kind === 'header' && state.size > 0) throw new WavFormatError('truncated header');
    if (state.kind === 'data') state.samples.reset();
  }

  /** Consumes a prefix of `input` in the current state; returns the rest. */
  private step(input: Uint8Array, out: PcmChunk[]): Uint8Array {
    const state = this.state;
    switch (state.kind) {
      case 'header': {
        state.buffered.push(input);
        state.size += input.length;
        const bytes = joined(state.buffered, state.size);
        state.buffered = [bytes];
        const header = scanWavHeader(bytes);
        if (!header) {
          if (state.size > WAV_MAX_HEADER_BYTES) throw new WavFormatError('header too long');
          return EMPTY;
        }
        this.last = header;
        this.state = { kind: 'data', remaining: header.dataBytes ?? Number.POSITIVE_INFINITY, header, samples: new SampleDecoder(header) };
        return bytes.subarray(header.dataOffset);
      }
      case 'data': {
        const take = Math.min(state.remaining, input.length);
        const samples = state.samples.decode(input.subarray(0, take));
        if (samples.length > 0) out.push({ samples, sampleRate: state.header.sampleRate, channels: state.header.channels });
        state.remaining -= take;
        if (state.remaining === 0) {
          state.samples.reset();
          this.state = { kind: 'between', buffered: [], size: 0, header: state.header };
        }
        return input.subarray(take);
      }
      case 'between': {
        // Data chunks are padded to an even size; the pad byte is skipped here.
        state.buffered.push(input);
        state.size += input.length;
        const bytes = joined(state.buffered, state.size);
        state.buffered = [bytes];
        const padded = (state.header.dataBytes ?? 0) & 1;
        if (padded && bytes[0] === 0) return this.restartBetween(state.header, bytes.subarray(1));
        if (bytes.length < 8) return EMPTY;
        const id = fourcc(bytes, 0);
        if (id === FOURCC_RIFF) {
          this.state = { kind: 'header', buffered: [], size: 0 };
          return bytes;
        }
        const size = new DataView(bytes.buffer, bytes.byteOffset, 8).getUint32(4, true);
        if (id === FOURCC_DATA) {
          this.state = { kind: 'data', remaining: size, header: state.header, samples: new SampleDecoder(state.header) };
        } else {
          this.state = { kind: 'skip', remaining: size + (size & 1), header: state.header };
        }
        return bytes.subarray(8);
      }
      case 'skip': {
        const take = Math.min(state.remaining, input.length);
        state.remaining -= take;
        if (state.remaining === 0) this.state = { kind: 'between', buffered: [], size: 0, header: { ...state.header, dataBytes: 0 } };
        return input.subarray(take);
      }
    }
  }

  private restartBetween(header: WavHeader, rest: Uint8Array): Uint8Array {
    this.state = { kind: 'between', buffered: [], size: 0, header: { ...header, dataBytes: 0 } };
    return rest;
  }
}

const EMPTY = new Uint8Array(0);

function joined(parts: Uint8Array[], size: number): Uint8Array {
  if (parts.length === 1) return parts[0] as Uint8Array;
  const out = new Uint8Array(size);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** Whether `bytes` begins with `RIFF` ???? `WAVE`. */
function startsWithWavHeader(bytes: Uint8Array): boolean {
  return bytes.length >= 12 && fourcc(bytes, 0) === FOURCC_RIFF && fourcc(bytes, 8) === FOURCC_WAVE;
}
