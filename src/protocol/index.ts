/** `voxpipe/protocol`: every wire shape of the service, shared by client and server. No I/O. */
export * from './speech.js';
export * from './open.js';
export * from './voices.js';
export * from './gender.js';
export * from './usage.js';
export * from './dubbing.js';
export * from './live.js';
export * from './captions.js';
