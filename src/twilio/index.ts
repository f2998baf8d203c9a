/** `voxpipe/twilio`: a Twilio Media Streams bridge (VAD, barge-in, paced mu-law frames, marks) and its parts. */
export * from './protocol.js';
export * from './vad.js';
export * from './playout.js';
export * from './attribution.js';
export * from './pacer.js';
export * from './speech-lease.js';
export * from './events.js';
export * from './call.js';
export * from './server.js';
export * from './fake-caller.js';
