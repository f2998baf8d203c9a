/** Turns zod issues into the one-line messages of `{success:false, message}` bodies. */
import type { z } from 'zod';

/** The message of every issue, prefixed with `path: ` unless it already names the field, joined with `; `. */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((i) => {
      const field = i.path.at(-1);
      const named = field === undefined || i.message.toLowerCase().includes(String(field).toLowerCase());
      return named ? i.message : `${i.path.join('.')}: ${i.message}`;
    })
    .join('; ');
}
