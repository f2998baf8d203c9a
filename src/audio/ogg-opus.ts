/**
 * Ogg/Opus stream writing (RFC 7845): the OpusHead and OpusTags header pages, then audio pages whose granule
 * positions count 48 kHz samples including the pre-skip, and an end-of-stream page whose granule position
 * trims the padding of the last frame.
 */
import { OggPageWriter, type OggPacket } from './ogg.js';
import { OPUS_PRE_SKIP } from './opus-codec.js';
import { randomInt } from 'node:crypto';

/** Options of {@link OggOpusWriter}. */
export interface OggOpusWriterOptions {
  channels: number;
  /** Sample rate of the original input, stored in OpusHead for information (playback is always 48 kHz). */
  inputSampleRate: number;
  /** Pre-skip in 48 kHz samples (default {@link OPUS_PRE_SKIP}). */
  preSkip?: number;
  /** Stream serial number (default random). */
  serial?: number;
  /** Vendor string of OpusTags. */
  vendor?: string;
}

/** Builds the 19-byte OpusHead identification header (channel mapping family 0). */
export function opusHead(channels: number, preSkip: number, inputSampleRate: number): Buffer {
  const head = Buffer.alloc(19);
  head.write('OpusHead', 0, 'latin1');
  head[8] = 1; // version
  head[9] = channels;
  head.writeUInt16LE(preSkip, 10);
  head.writeUInt32LE(inputSampleRate, 12);
  head.writeInt16LE(0, 16); // output gain
  head[18] = 0; // mapping family
  return head;
}

/** Builds an OpusTags comment header with no user comments. */
export function opusTags(vendor: string): Buffer {
  const vendorBytes = Buffer.from(vendor, 'utf8');
  const tags = Buffer.alloc(8 + 4 + vendorBytes.length + 4);
  tags.write('OpusTags', 0, 'latin1');
  tags.writeUInt32LE(vendorBytes.length, 8);
  vendorBytes.copy(tags, 12);
  tags.writeUInt32LE(0, 12 + vendorBytes.length);
  return tags;
}

/** Writes one Ogg/Opus logical stream packet by packet; every call returns finished pages ready to send. */
export class OggOpusWriter {
  readonly preSkip: number;
  private readonly pages: OggPageWriter;
  private readonly options: OggOpusWriterOptions;
  private started = false;
  /** Granule position (48 kHz samples, pre-skip included) after the last packet written. */
  private granule: bigint;

  constructor(options: OggOpusWriterOptions) {
    this.options = options;
    this.preSkip = options.preSkip ?? OPUS_PRE_SKIP;
    this.pages = new OggPageWriter(options.serial ?? randomInt(0, 2 ** 32 - 1));
    this.granule = 0n;
  }

  /**
   * Writes packets each decoding to `samples48k` samples (per channel, at 48 kHz); the header pages come
   * first on the first call. Returns the pages completed (the packets always end on them).
   */
  write(packets: readonly Uint8Array[], samples48k: number): Buffer[] {
    const out = this.start();
    if (packets.length === 0) return out;
    const laid: OggPacket[] = packets.map((data) => {
      this.granule += BigInt(samples48k);
      return { data, granule: this.granule };
    });
    return [...out, ...this.pages.write(laid)];
  }

  /**
   * Writes the last packets and the end-of-stream flag. `totalSamples48k` is the real number of samples the
   * stream holds (without pre-skip); the final granule position is set from it so players drop the padding.
   */
  end(packets: readonly Uint8Array[], samples48k: number, totalSamples48k: number): Buffer[] {
    const out = this.start();
    const laid: OggPacket[] = packets.map((data) => {
      this.granule += BigInt(samples48k);
      return { data, granule: this.granule };
    });
    const last = laid[laid.length - 1];
    const finalGranule = BigInt(this.preSkip + totalSamples48k);
    if (last && finalGranule <= last.granule) last.granule = finalGranule;
    return [...out, ...this.pages.write(laid, { eos: true })];
  }

  private start(): Buffer[] {
    if (this.started) return [];
    this.started = true;
    const { channels, inputSampleRate, vendor = 'voxpipe' } = this.options;
    return [
      ...this.pages.write([{ data: opusHead(channels, this.preSkip, inputSampleRate), granule: 0n }], { bos: true }),
      ...this.pages.write([{ data: opusTags(vendor), granule: 0n }]),
    ];
  }
}
