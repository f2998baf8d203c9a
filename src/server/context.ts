/**
 * What every area of the reference service gets when it registers: config, database, logger, auth,
 * the WebSocket router, and the few cross-area services (synthesizer, voice directory, connection meter).
 * Areas depend on these interfaces, never on each other's modules.
 */
import type { Logger } from 'pino';
import type { Authenticator } from './auth.js';
import type { ServiceConfig } from './config.js';
import type { Synthesizer, VoiceProfile, EmotionStyle } from './speech/synth/synthesizer.js';
import type { Db } from './store.js';
import type { WebSocketRouter } from './ws-router.js';

/** A voice prompt id resolved to the voice it selects and, for an emotion's prompt, that emotion. */
export interface ResolvedVoice {
  voice: VoiceProfile;
  /** Set when the id is an emotion prompt of a base voice. */
  emotion?: EmotionStyle | undefined;
  /** The base voice's emotion set, looked up by `[name]` tags and emotion emoji. */
  emotions: ReadonlyArray<EmotionStyle & { voicePromptId: string; emoji: readonly string[] }>;
}

/** Looks voice prompt ids up across the configured voices and the account's uploaded voice bank. */
export interface VoiceDirectory {
  resolve(accountId: string, voicePromptId: string): ResolvedVoice | undefined;
}

/** Handle of one metered speech connection. */
export interface MeteredConnection {
  /** Records the model in use from now on (called on each successful stream-config). */
  setModel(model: string): void;
  /** Ends the metered interval (socket closed). Idempotent. */
  close(): void;
}

/** Meters speech connections for usage reports and live connection counts. */
export interface ConnectionMeter {
  open(accountId: string, region: string): MeteredConnection;
}

/** Shared by all areas of one running server. */
export interface ServerContext {
  config: ServiceConfig;
  db: Db;
  logger: Logger;
  auth: Authenticator;
  ws: WebSocketRouter;
  /** Directory for durable files (voice audio, dubbing exports). `:memory:` servers use a temp dir. */
  dataDir: string;
  synthesizer: Synthesizer;
  voices: VoiceDirectory;
  meter: ConnectionMeter;
  /** Called on shutdown, in reverse order of registration. */
  onClose(fn: () => void | Promise<void>): void;
}
