#!/usr/bin/env node
/** The `voxpipe` command: dispatches to subcommands. */
import { serve, SERVE_HELP } from './serve.js';

const HELP = `Usage: voxpipe <command> [options]

Commands:
  serve     Run the reference service (see: voxpipe serve --help)
  help      Show this help

Run 'voxpipe <command> --help' for a command's options.
`;

const commands: Record<string, { run: (argv: string[]) => Promise<number>; help: string }> = {
  serve: { run: serve, help: SERVE_HELP },
};

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === 'help' || name === '--help' || name === '-h') {
    process.stdout.write(HELP);
    return name ? 0 : 1;
  }
  const command = commands[name];
  if (!command) {
    process.stderr.write(`voxpipe: unknown command '${name}'\n\n${HELP}`);
    return 2;
  }
  return command.run(rest);
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`voxpipe: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
