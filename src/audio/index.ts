/** `voxpipe/audio`: streaming transcoding adapters (filled in by issue 4). */
export {};
