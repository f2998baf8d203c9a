/** `voxpipe usage`: concurrent usage by model, and live connection counts. */
import { UsageClient } from '../../client/usage.js';
import { printUsageTable } from '../../client/usage-meter.js';
import type { Command } from '../command.js';
import { GLOBAL_HELP, parseCommand, printJson, printTable, resolveEndpoints } from '../context.js';

const HELP = `Usage:
  voxpipe usage [--from YYYY-MM-DD] [--to YYYY-MM-DD] [--model ID] [--region us|eu]
  voxpipe usage connections --models ID[,ID...]

Prints the concurrent-usage report per model over an inclusive date range (default: the last 30 days, at most
366), or the live connection counts of some models.

${GLOBAL_HELP}`;

/** `voxpipe usage`. */
export const usageCommand: Command = {
  name: 'usage',
  summary: 'Usage report by model, and live connection counts',
  help: HELP,
  async run(argv) {
    const { values, positionals } = parseCommand(argv, {
      from: { type: 'string' },
      to: { type: 'string' },
      model: { type: 'string' },
      models: { type: 'string' },
    });
    if (values.help) {
      process.stdout.write(HELP);
      return 0;
    }
    const ep = resolveEndpoints(values);
    const client = new UsageClient({ baseUrl: ep.apiUrl, ...(ep.apiKey ? { apiKey: ep.apiKey } : {}) });
    const json = values.json === true;
    if (positionals[0] === 'connections') {
      const ids = String(values.models ?? '').split(',').filter(Boolean);
      const counts = await client.connections(ids);
      if (json) printJson(counts);
      else printTable(Object.entries(counts).map(([modelId, c]) => ({ modelId, ...c })), false);
      return 0;
    }
    const day = 86_400_000;
    const to = typeof values.to === 'string' ? values.to : new Date().toISOString().slice(0, 10);
    const from = typeof values.from === 'string' ? values.from : new Date(Date.parse(`${to}T00:00:00Z`) - 29 * day).toISOString().slice(0, 10);
    const report = await client.byModel({
      from,
      to,
      ...(typeof values.model === 'string' ? { modelId: values.model } : {}),
      ...(typeof values.region === 'string' ? { region: values.region } : {}),
    });
    if (json) printJson(report);
    else {
      process.stdout.write(`customer ${report.customerId}, ${report.from} .. ${report.to}\n`);
      printUsageTable(report.items);
    }
    return 0;
  },
};
