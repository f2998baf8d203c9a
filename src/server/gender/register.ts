/** Registers gender classification under /api/v1/gender-detection. */
import type { FastifyInstance } from 'fastify';
import type { ServerContext } from '../context.js';

/** Registers gender classification under /api/v1/gender-detection on `app`. */
export function registerGender(_app: FastifyInstance, _ctx: ServerContext): void {
  // not implemented yet
}
