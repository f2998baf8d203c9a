/** Registers the voice bank under /api/v1/voice. */
import type { FastifyInstance } from 'fastify';
import type { ServerContext } from '../context.js';

/** Registers the voice bank under /api/v1/voice on `app`. */
export function registerVoices(_app: FastifyInstance, _ctx: ServerContext): void {
  // not implemented yet
}
