/** Validation of REST response bodies at the client boundary: a body that does not match its wire schema is a {@link ProtocolError}. */
import type { z } from 'zod';
import { ProtocolError } from '../errors.js';

/** Parses `body` with `schema`; throws {@link ProtocolError} (code `protocol_error`) naming `what` when it does not match. */
export function expectResponse<S extends z.ZodType>(schema: S, body: unknown, what: string): z.output<S> {
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue && issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
    throw new ProtocolError(`unexpected ${what} response: ${where}${issue?.message ?? 'invalid body'}`, { body });
  }
  return parsed.data;
}
