/** The shape of a `voxpipe` subcommand. */

/** A subcommand: its one-line summary for `voxpipe help`, full help, and entry point returning an exit code. */
export interface Command {
  name: string;
  summary: string;
  help: string;
  run(argv: string[]): Promise<number>;
}
