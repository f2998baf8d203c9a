/** HLS playlist and WebVTT parsing shared by the live service and the captions client. No I/O. */
export * from './cue-dedupe.js';
export * from './playlist.js';
export * from './webvtt.js';
