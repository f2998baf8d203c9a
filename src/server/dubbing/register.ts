/** Registers managed dubbing jobs under /dubbing. */
import type { FastifyInstance } from 'fastify';
import type { ServerContext } from '../context.js';

/** Registers managed dubbing jobs under /dubbing on `app`. */
export function registerDubbing(_app: FastifyInstance, _ctx: ServerContext): void {
  // not implemented yet
}
