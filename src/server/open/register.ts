/** Registers the complete-text socket /open. */
import type { FastifyInstance } from 'fastify';
import type { ServerContext } from '../context.js';

/** Registers the complete-text socket /open on `app`. */
export function registerOpenSocket(_app: FastifyInstance, _ctx: ServerContext): void {
  // not implemented yet
}
