/**
 * FastAPI / pydantic v2 style validation errors: zod issues become `{loc, msg, type}` items with pydantic's
 * `type` strings and messages (`missing` / "Field required", `string_type`, `int_type`, `int_from_float`,
 * `bool_type`, `enum`, `list_type`, `dict_type`, `model_attributes_type`, `greater_than_equal`,
 * `value_error` / "Value error, …"), `loc` prefixed with where the value came from (`body`, `query`, `path`).
 */
import type { z } from 'zod';
import type { ValidationIssue } from '../../errors.js';
import type { DubbingValidationErrorBody } from '../../protocol/dubbing.js';

/** pydantic's type and message for an unexpected JSON type, by zod's `expected`. */
const TYPE_ERRORS: Record<string, { type: string; msg: string }> = {
  string: { type: 'string_type', msg: 'Input should be a valid string' },
  number: { type: 'int_type', msg: 'Input should be a valid integer' },
  int: { type: 'int_type', msg: 'Input should be a valid integer' },
  boolean: { type: 'bool_type', msg: 'Input should be a valid boolean' },
  array: { type: 'list_type', msg: 'Input should be a valid list' },
  record: { type: 'dict_type', msg: 'Input should be a valid dictionary' },
  object: { type: 'model_attributes_type', msg: 'Input should be a valid dictionary or object to extract fields from' },
};

/** Formats enum members the way pydantic does: `'A', 'B' or 'C'`. */
function enumList(values: readonly unknown[]): string {
  const quoted = values.map((v) => `'${String(v)}'`);
  return quoted.length <= 1 ? (quoted[0] ?? '') : `${quoted.slice(0, -1).join(', ')} or ${quoted.at(-1)}`;
}

/** Maps one zod issue to a FastAPI item. */
export function toValidationIssue(issue: z.core.$ZodIssue, prefix: Array<string | number>): ValidationIssue {
  const loc = [...prefix, ...issue.path.map((p) => (typeof p === 'number' ? p : String(p)))];
  const input = (issue as { input?: unknown }).input;
  if (input === undefined && (issue.code === 'invalid_type' || issue.code === 'invalid_value')) return { loc, msg: 'Field required', type: 'missing' };
  switch (issue.code) {
    case 'invalid_type': {
      if (issue.expected === 'int' && typeof input === 'number') {
        return { loc, msg: 'Input should be a valid integer, got a number with a fractional part', type: 'int_from_float' };
      }
      const known = TYPE_ERRORS[issue.expected];
      return { loc, msg: known?.msg ?? issue.message, type: known?.type ?? `${issue.expected}_type` };
    }
    case 'invalid_value':
      return { loc, msg: `Input should be ${enumList(issue.values)}`, type: 'enum' };
    case 'too_small':
      return issue.origin === 'string'
        ? { loc, msg: `String should have at least ${String(issue.minimum)} character${issue.minimum === 1 ? '' : 's'}`, type: 'string_too_short' }
        : { loc, msg: `Input should be greater than or equal to ${String(issue.minimum)}`, type: 'greater_than_equal' };
    case 'too_big':
      return { loc, msg: `Input should be less than or equal to ${String(issue.maximum)}`, type: 'less_than_equal' };
    case 'custom': {
      const params = (issue.params ?? {}) as { type?: string; raw?: boolean };
      const type = params.type ?? 'value_error';
      return { loc, msg: params.raw ? issue.message : `Value error, ${issue.message}`, type };
    }
    default:
      return { loc, msg: issue.message, type: 'value_error' };
  }
}

/** Builds the 422 body for a failed zod parse of a value found at `prefix` (e.g. `['body']`). */
export function validationBody(error: z.ZodError, prefix: Array<string | number>): DubbingValidationErrorBody {
  return { detail: error.issues.map((issue) => toValidationIssue(issue, prefix)) };
}

/** A 422 body with one `value_error` item. */
export function valueErrorBody(loc: Array<string | number>, message: string): DubbingValidationErrorBody {
  return { detail: [{ loc, msg: `Value error, ${message}`, type: 'value_error' }] };
}
