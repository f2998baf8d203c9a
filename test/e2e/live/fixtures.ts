/** Shared fixtures of the live tests: accounts with and without the live feature, a small cap, valid configs. */
import { DEFAULT_SERVICE_CONFIG, serviceConfigSchema, type ServiceConfig } from '../../../src/server/config.js';
import { LIVE_PULL_INPUT_SCHEMES, LIVE_PUSH_OUTPUT_SCHEMES, type LiveInputStreamType, type LiveServiceConfig } from '../../../src/protocol/live.js';

export const NO_LIVE_KEY = 'dd-11111111111111111111111111111111';
export const SMALL_CAP_KEY = 'dd-22222222222222222222222222222222';
export const THIRD_PARTY_KEY = 'dd-33333333333333333333333333333333';
export const EU_KEY = 'dd-44444444444444444444444444444444';

/** Default config plus accounts: no live feature, cap 2, elevenlabs enabled, provisioned in the EU. */
export const LIVE_TEST_CONFIG: ServiceConfig = serviceConfigSchema.parse({
  ...DEFAULT_SERVICE_CONFIG,
  accounts: [
    ...DEFAULT_SERVICE_CONFIG.accounts,
    { id: 'nolive', apiKeys: [NO_LIVE_KEY], features: ['dubbing'] },
    { id: 'small', apiKeys: [SMALL_CAP_KEY], liveServiceCap: 2 },
    { id: 'eleven', apiKeys: [THIRD_PARTY_KEY], features: ['live', 'live-tts:elevenlabs'] },
    { id: 'europe', apiKeys: [EU_KEY], region: 'eu' },
  ],
});

/** A valid HlsPullSource config (voice Avery, en-US). */
export function hlsConfig(url = 'http://127.0.0.1:9/master.m3u8', name = 'news'): LiveServiceConfig {
  return {
    name,
    buildVersion: '2025.11.2',
    input: { type: 'HlsPullSource', url },
    outputs: [{ type: 'HlsPushOutput', url: 'http://127.0.0.1:9/out' }],
    translations: [{ language: 'en-US', ttsEngine: 'voxpipe', voice: 'a1f7c2d0-0000-4000-8000-000000000001' }],
  };
}

/** A URL with the scheme a pull input or push output type takes (http otherwise). */
export function streamUrl(type: string, path: string): string {
  const scheme = LIVE_PULL_INPUT_SCHEMES[type as LiveInputStreamType]?.[0] ?? LIVE_PUSH_OUTPUT_SCHEMES[type]?.[0] ?? 'http:';
  return `${scheme}//127.0.0.1:9/${path}`;
}
