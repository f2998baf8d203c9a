#!/usr/bin/env node
/** The `voxpipe` command: dispatches to subcommands and maps failures to exit codes. */
import type { Command } from './command.js';
import { benchCommand } from './commands/bench.js';
import { captionsCommand } from './commands/captions.js';
import { dubCommand } from './commands/dub.js';
import { genderCommand } from './commands/gender.js';
import { liveCommand } from './commands/live.js';
import { sayCommand } from './commands/say.js';
import { usageCommand } from './commands/usage.js';
import { voicesCommand } from './commands/voices.js';
import { describeFailure, EXIT, UsageError } from './context.js';
import { serveCommand } from './serve.js';

const COMMANDS: Command[] = [serveCommand, sayCommand, voicesCommand, genderCommand, dubCommand, liveCommand, captionsCommand, usageCommand, benchCommand];

function help(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  return `Usage: voxpipe <command> [options]

Commands:
${COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`).join('\n')}
  ${'help'.padEnd(width)}  Show this help, or a command's help: voxpipe help <command>

Service commands talk to --url (default $VOXPIPE_URL or http://127.0.0.1:8080) with --api-key (or $VOXPIPE_API_KEY).
Exit codes: 0 ok, 1 failure, 2 usage error, 3 unauthorized, 4 not found, 5 invalid input, 6 service unavailable.
`;
}

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h') {
    process.stdout.write(help());
    return name ? EXIT.ok : EXIT.usage;
  }
  if (name === 'help') {
    const target = COMMANDS.find((c) => c.name === rest[0]);
    process.stdout.write(target ? target.help : help());
    return EXIT.ok;
  }
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) {
    process.stderr.write(`voxpipe: unknown command '${name}'\n\n${help()}`);
    return EXIT.usage;
  }
  try {
    return await command.run(rest);
  } catch (error) {
    const failure = describeFailure(error);
    process.stderr.write(`voxpipe ${name}: ${failure.message}\n`);
    if (error instanceof UsageError) process.stderr.write(`\n${command.help}`);
    return failure.code;
  }
}

main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
