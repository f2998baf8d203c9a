/** Registers the speech streaming socket /ws and POST /api/v1/tts. */
import type { FastifyInstance } from 'fastify';
import type { ServerContext } from '../context.js';

/** Registers the speech streaming socket /ws and POST /api/v1/tts on `app`. */
export function registerSpeech(_app: FastifyInstance, _ctx: ServerContext): void {
  // not implemented yet
}
