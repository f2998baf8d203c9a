/** Registers usage reports and concurrent connection counts. */
import type { FastifyInstance } from 'fastify';
import type { ServerContext } from '../context.js';

/** Registers usage reports and concurrent connection counts on `app`. */
export function registerUsage(_app: FastifyInstance, _ctx: ServerContext): void {
  // not implemented yet
}
