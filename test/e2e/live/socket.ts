/** Opens a captions socket and collects its frames for assertions. */
import WebSocket from 'ws';
import type { CaptionsFrame } from '../../../src/protocol/captions.js';

/** A collecting socket. */
export interface FrameLog {
  ws: WebSocket;
  frames: CaptionsFrame[];
  /** Resolves once `predicate` holds for the frames (polls; rejects after `timeoutMs`). */
  until(predicate: (frames: CaptionsFrame[]) => boolean, timeoutMs?: number): Promise<void>;
  closed: Promise<{ code: number; reason: string }>;
}

/** Connects to `url` (with optional handshake `headers`); resolves once open. */
export async function openFrames(url: string, headers: Record<string, string> = {}): Promise<FrameLog> {
  const ws = new WebSocket(url, { headers });
  const frames: CaptionsFrame[] = [];
  ws.on('message', (data) => frames.push(JSON.parse(String(data)) as CaptionsFrame));
  const closed = new Promise<{ code: number; reason: string }>((resolve) => ws.on('close', (code, reason) => resolve({ code, reason: String(reason) })));
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  return {
    ws,
    frames,
    closed,
    async until(predicate, timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs;
      while (!predicate(frames)) {
        if (Date.now() > deadline) throw new Error(`timed out; frames: ${JSON.stringify(frames).slice(0, 2000)}`);
        await new Promise((r) => setTimeout(r, 10));
      }
    },
  };
}

/** Status of a refused handshake. */
export function handshakeStatus(url: string, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers });
    ws.on('unexpected-response', (_req, res) => {
      resolve(res.statusCode ?? 0);
      ws.terminate();
    });
    ws.on('open', () => {
      ws.close();
      reject(new Error('handshake was accepted'));
    });
    ws.on('error', () => undefined);
  });
}
