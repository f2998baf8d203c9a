/**
 * Typed errors of the speech socket client: a session-level `error` message ({@link SessionError}) and a
 * worker-level failure of one generation ({@link GenerationError}). Both keep the wire message in `body`.
 */
import { VoxpipeError, type VoxpipeErrorOptions } from '../../errors.js';

/** The server sent `{"action":"error"}`; the session stays open (code `session_error`). */
export class SessionError extends VoxpipeError {
  /** Server time of the error in Unix seconds (0 when the server gave none). */
  readonly time: number;
  constructor(message: string, options: VoxpipeErrorOptions & { time?: number } = {}) {
    super('session_error', message, options);
    this.time = options.time ?? 0;
  }
}

/** A worker-level error stopped one generation; the turn's other generations continue (code `generation_error`). */
export class GenerationError extends VoxpipeError {
  /** Generation that failed. */
  readonly generationId: string;
  constructor(generationId: string, message: string, options: VoxpipeErrorOptions = {}) {
    super('generation_error', message, options);
    this.generationId = generationId;
  }
}
