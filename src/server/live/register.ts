/** Registers live services, enums and the captions socket under /live. */
import type { FastifyInstance } from 'fastify';
import type { ServerContext } from '../context.js';

/** Registers live services, enums and the captions socket under /live on `app`. */
export function registerLive(_app: FastifyInstance, _ctx: ServerContext): void {
  // not implemented yet
}
