/**
 * Where a call's speech session comes from: a session connected for the call (closed when it ends), or
 * one borrowed from a {@link SessionPool} for the whole call (returned when it ends). Either way the
 * session is configured for the Twilio sink (`planFormat({ kind: 'twilio' })`: mu-law 8 kHz).
 */
import type { Logger } from 'pino';
import { SessionPool } from '../client/pool.js';
import { SpeechSession, type SpeechSessionOptions } from '../client/speech-session.js';
import type { StreamConfig } from '../protocol/speech.js';

/** Speech service settings for the bridge: connect per call, or borrow from a pool. */
export type BridgeSpeech =
  | (Omit<SpeechSessionOptions, 'url' | 'signal' | 'logger'> & {
      /** Socket URL (`ws://host:port/ws`) or base URL of the service. */
      url: string;
    })
  | SessionPool;

/** A session held for one call. */
export interface SessionLease {
  session: SpeechSession;
  /** Closes the session (own connection) or returns it to its pool. */
  release(): Promise<void>;
}

/** The stream-config a call uses: the configured one with the Twilio format forced. */
export function twilioConfig(config: StreamConfig, request: { format: string; sampleRate: number }): StreamConfig {
  return { ...config, format: request.format, sampleRate: request.sampleRate };
}

/** Gets a session for one call, configured with `request` (format and rate of the Twilio plan). */
export async function leaseSession(speech: BridgeSpeech, request: { format: string; sampleRate: number }, signal: AbortSignal, logger: Logger): Promise<SessionLease> {
  if (!(speech instanceof SessionPool)) {
    const { url, config, ...rest } = speech;
    const endpoint = /\/ws\/?$/.test(new URL(url).pathname) ? { url } : { baseUrl: url };
    const session = await SpeechSession.connect({ ...rest, ...endpoint, config: twilioConfig(config, request), signal, logger });
    return { session, release: () => session.close() };
  }
  return new Promise<SessionLease>((resolve, reject) => {
    speech
      .withSession(
        async (session) => {
          if (session.config.format !== request.format || session.config.sampleRate !== request.sampleRate) {
            await session.configure(twilioConfig(session.config, request));
          }
          // Held until the call releases it.
          await new Promise<void>((done) => resolve({ session, release: async () => done() }));
        },
        { signal },
      )
      .catch(reject);
  });
}
