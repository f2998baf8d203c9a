/** Registers the web console at /. */
import type { FastifyInstance } from 'fastify';
import type { ServerContext } from '../context.js';

/** Registers the web console at / on `app`. */
export function registerConsole(_app: FastifyInstance, _ctx: ServerContext): void {
  // not implemented yet
}
