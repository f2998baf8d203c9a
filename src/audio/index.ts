/** `voxpipe/audio`: streaming transcoding adapters (WAV, resampling, mu-law, framing, Opus/Ogg, MP3). */
export * from './wav.js';
export * from './mulaw.js';
export * from './fir.js';
export * from './resampler.js';
export * from './framer.js';
export * from './ogg.js';
export * from './opus-codec.js';
export * from './ogg-opus.js';
export * from './encoder.js';
export * from './pcm.js';
export * from './wav-decoder.js';
export * from './transforms.js';
export * from './opus-stream.js';
export * from './node-streams.js';
export * from './planner.js';
