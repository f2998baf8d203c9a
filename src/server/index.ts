/** `voxpipe/server`: the reference service. */
export { startServer, type ServerOptions, type RunningServer } from './app.js';
export { DEFAULT_SERVICE_CONFIG, loadServiceConfig, serviceConfigSchema, type ServiceConfig } from './config.js';
export { generateApiKey, API_KEY_PATTERN } from './auth.js';
export type { SynthesizerEngine } from './speech/synth/index.js';
export type { Synthesizer, SynthesisRequest, VoiceProfile, EmotionStyle } from './speech/synth/synthesizer.js';
