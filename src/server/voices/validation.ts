/** Turns zod issues into the one-line messages of `{success:false, message}` bodies. */
import type { z } from 'zod';

/** `path: message` of every issue, joined with `; `. */
export function describeIssues(error: z.ZodError): string {
  return error.issues.map((i) => (i.path.length > 0 && !i.message.startsWith(String(i.path[0])) ? `${i.path.join('.')}: ${i.message}` : i.message)).join('; ');
}
