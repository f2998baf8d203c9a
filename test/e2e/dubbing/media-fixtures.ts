/**
 * Small real container heads for dubbing tests (MP4 with `mvhd`, MOV, WebM with Segment/Info duration, MPEG-TS,
 * AVI with `avih`) and a loopback HTTP server that serves them with Range support, standing in for an HTTPS
 * origin or an S3-compatible endpoint (path-style `/{bucket}/{key}`).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

const u32 = (n: number): Buffer => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
};
const box = (type: string, ...payload: Buffer[]): Buffer => {
  const body = Buffer.concat(payload);
  return Buffer.concat([u32(8 + body.length), Buffer.from(type, 'ascii'), body]);
};

/** An `mvhd` box (version 0) stating `durationMs` at timescale 1000. */
export function mvhd(durationMs: number, timescale = 1000): Buffer {
  const body = Buffer.alloc(100);
  body.writeUInt32BE(0, 0); // version 0, flags
  body.writeUInt32BE(timescale, 12);
  body.writeUInt32BE(Math.round((durationMs * timescale) / 1000), 16);
  body.writeUInt32BE(0x00010000, 20); // rate 1.0
  body.writeUInt16BE(0x0100, 24); // volume 1.0
  body.writeUInt32BE(2, 96); // next track id
  return box('mvhd', body);
}

/** An MP4 file: `ftyp`, then `moov/mvhd` before (faststart) or after an `mdat` of `mdatBytes`. */
export function mp4File(durationMs: number, options: { moovAtEnd?: boolean; mdatBytes?: number; brand?: string } = {}): Buffer {
  const ftyp = box('ftyp', Buffer.from(options.brand ?? 'isom', 'ascii'), u32(0x200), Buffer.from('isomiso2avc1mp41', 'ascii'));
  const moov = box('moov', mvhd(durationMs), box('trak', box('tkhd', Buffer.alloc(84))));
  const mdat = box('mdat', Buffer.alloc(options.mdatBytes ?? 1024, 0x11));
  return options.moovAtEnd ? Buffer.concat([ftyp, mdat, moov]) : Buffer.concat([ftyp, moov, mdat]);
}

const ebml = (id: number[], payload: Buffer): Buffer => {
  // 8-byte size vint (0x01 marker) keeps the encoder trivial.
  const size = Buffer.alloc(8);
  size.writeUInt32BE(0x01000000, 0);
  size.writeUInt32BE(payload.length, 4);
  return Buffer.concat([Buffer.from(id), size, payload]);
};

/** A WebM head: EBML header (DocType webm), Segment/Info with TimecodeScale 1 ms and Duration. */
export function webmHead(durationMs: number): Buffer {
  const header = ebml([0x1a, 0x45, 0xdf, 0xa3], ebml([0x42, 0x82], Buffer.from('webm', 'ascii')));
  const duration = Buffer.alloc(8);
  duration.writeDoubleBE(durationMs);
  const info = ebml([0x15, 0x49, 0xa9, 0x66], Buffer.concat([ebml([0x2a, 0xd7, 0xb1], Buffer.from([0x0f, 0x42, 0x40])), ebml([0x44, 0x89], duration)]));
  return Buffer.concat([header, ebml([0x18, 0x53, 0x80, 0x67], info)]);
}

/** Four MPEG-TS packets (sync byte 0x47 every 188 bytes). */
export function mpegTsHead(): Buffer {
  const packets = Buffer.alloc(188 * 4, 0xff);
  for (let i = 0; i < 4; i++) packets.writeUInt8(0x47, i * 188);
  return packets;
}

/** An AVI head: RIFF/AVI, LIST hdrl, avih with 40 000 µs per frame and `frames` frames. */
export function aviHead(frames: number): Buffer {
  const avih = Buffer.alloc(56);
  avih.writeUInt32LE(40_000, 0);
  avih.writeUInt32LE(frames, 16);
  const chunk = Buffer.concat([Buffer.from('avih', 'ascii'), Buffer.from([56, 0, 0, 0]), avih]);
  const list = Buffer.concat([Buffer.from('LIST', 'ascii'), Buffer.alloc(4), Buffer.from('hdrl', 'ascii'), chunk]);
  return Buffer.concat([Buffer.from('RIFF', 'ascii'), Buffer.alloc(4), Buffer.from('AVI ', 'ascii'), list]);
}

/** A loopback origin serving `files` by path, honouring single `Range: bytes=a-b` requests with 206. */
export interface MediaServer {
  /** `http://127.0.0.1:PORT`. */
  url: string;
  /** Range headers received, in order. */
  ranges: string[];
  close(): Promise<void>;
}

/** Starts a {@link MediaServer}; paths in `redirects` answer 302 to the given location. */
export async function startMediaServer(files: Record<string, Buffer>, redirects: Record<string, string> = {}): Promise<MediaServer> {
  const ranges: string[] = [];
  const server: Server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    const location = redirects[path];
    if (location) {
      res.writeHead(302, { location }).end();
      return;
    }
    const file = files[path];
    if (!file) {
      res.writeHead(404).end('not found');
      return;
    }
    const range = /^bytes=(\d+)-(\d*)$/.exec(req.headers.range ?? '');
    ranges.push(req.headers.range ?? '');
    if (!range) {
      res.writeHead(200, { 'content-length': file.length }).end(file);
      return;
    }
    const start = Number(range[1]);
    const end = Math.min(file.length - 1, range[2] ? Number(range[2]) : file.length - 1);
    if (start >= file.length) {
      res.writeHead(416, { 'content-range': `bytes */${file.length}` }).end();
      return;
    }
    res.writeHead(206, { 'content-range': `bytes ${start}-${end}/${file.length}`, 'content-length': end - start + 1 }).end(file.subarray(start, end + 1));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    ranges,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
