/** `voxpipe dub submit|status|list|wait|feedback|advance`: managed dubbing jobs. */
import { readFile } from 'node:fs/promises';
import { DubbingClient } from '../../client/dubbing.js';
import type { DubbingJobRequest, DubbingJobStatusName, RedubbingRequest } from '../../protocol/dubbing.js';
import type { Command } from '../command.js';
import { GLOBAL_HELP, parseCommand, printJson, printTable, Progress, resolveEndpoints, UsageError } from '../context.js';

const HELP = `Usage:
  voxpipe dub submit (--file JOB.json | --source-locale L --target-locale L --video PATH) [--export s3://...] [--wait]
  voxpipe dub status ID
  voxpipe dub list [--all]
  voxpipe dub wait ID [--until STATUS] [--timeout SECONDS]
  voxpipe dub feedback ID (--file FEEDBACK.json | --message TEXT)
  voxpipe dub advance ID [--reject]        (reference service admin: move a MANAGED job past human review)

submit prints the requestId; with --wait it then shows progress until the job is delivered. wait exits 0 when
the job reaches the status (default: delivered), 1 when it fails.

${GLOBAL_HELP}`;

/** `voxpipe dub`. */
export const dubCommand: Command = {
  name: 'dub',
  summary: 'Submit, track and give feedback on dubbing jobs',
  help: HELP,
  async run(argv) {
    const { values, positionals } = parseCommand(argv, {
      file: { type: 'string' },
      'source-locale': { type: 'string' },
      'target-locale': { type: 'string' },
      video: { type: 'string' },
      export: { type: 'string' },
      wait: { type: 'boolean' },
      until: { type: 'string' },
      timeout: { type: 'string' },
      message: { type: 'string' },
      all: { type: 'boolean' },
      reject: { type: 'boolean' },
    });
    if (values.help) {
      process.stdout.write(HELP);
      return 0;
    }
    const ep = resolveEndpoints(values);
    const client = new DubbingClient({ baseUrl: ep.dubbingUrl, ...(ep.apiKey ? { apiKey: ep.apiKey } : {}) });
    const [sub, id] = positionals;
    const json = values.json === true;
    const needId = (): string => {
      if (!id) throw new UsageError(`dub ${sub ?? ''} needs a job ID`);
      return id;
    };
    const wait = async (requestId: string): Promise<number> => {
      const progress = new Progress();
      const timeout = values.timeout === undefined ? undefined : Number(values.timeout) * 1000;
      try {
        const job = await client.waitFor(requestId, {
          ...(typeof values.until === 'string' ? { until: values.until as DubbingJobStatusName } : {}),
          ...(timeout ? { timeoutMs: timeout } : {}),
          pollIntervalMs: 1000,
          onProgress: ({ job: j, fraction, elapsedMs }) =>
            progress.update(`${requestId}  ${bar(fraction)} ${String(Math.round(fraction * 100)).padStart(3)}%  ${j.status}  ${(elapsedMs / 1000).toFixed(0)}s`),
        });
        progress.done();
        if (json) printJson(job);
        else printJob(job);
        return 0;
      } catch (error) {
        progress.done();
        throw error;
      }
    };
    switch (sub) {
      case 'submit': {
        const request = await jobRequest(values);
        const { requestId } = await client.create(request);
        if (json && !values.wait) printJson({ requestId });
        else process.stdout.write(`${requestId}\n`);
        return values.wait ? wait(requestId) : 0;
      }
      case 'status': {
        const job = await client.get(needId());
        if (json) printJson(job);
        else printJob(job);
        return 0;
      }
      case 'list': {
        const jobs = [];
        if (values.all) for await (const job of client.listAll()) jobs.push(job);
        else jobs.push(...(await client.list()).items);
        printTable(
          jobs.map((j) => ({ requestId: j.requestId, status: j.status, exportPath: j.exportPath ?? '', products: (j.additionalProducts ?? []).map((p) => `${p.product}:${p.state ?? '-'}`).join(' ') })),
          json,
        );
        return 0;
      }
      case 'wait':
        return wait(needId());
      case 'feedback': {
        const requestId = needId();
        let feedback: RedubbingRequest;
        if (typeof values.file === 'string') feedback = JSON.parse(await readFile(values.file, 'utf8')) as RedubbingRequest;
        else if (typeof values.message === 'string') feedback = { generalFeedback: values.message } as RedubbingRequest;
        else throw new UsageError('dub feedback needs --file FEEDBACK.json or --message TEXT');
        const result = await client.feedback(requestId, feedback);
        if (json) printJson(result);
        else process.stdout.write(`feedback accepted for ${result.requestId}; resynthesis started\n`);
        return 0;
      }
      case 'advance': {
        const result = await client.advance(needId(), values.reject ? 'reject' : 'approve');
        if (json) printJson(result);
        else process.stdout.write(`${result.requestId}: ${result.status} -> ${result.next}\n`);
        return 0;
      }
      default:
        throw new UsageError(sub ? `unknown dub command '${sub}'` : 'dub needs a command: submit, status, list, wait, feedback or advance');
    }
  },
};

async function jobRequest(values: Record<string, unknown>): Promise<DubbingJobRequest> {
  if (typeof values.file === 'string') return JSON.parse(await readFile(values.file, 'utf8')) as DubbingJobRequest;
  const sourceLocale = values['source-locale'];
  const targetLocale = values['target-locale'];
  const sourceVideoPath = values.video;
  if (typeof sourceLocale !== 'string' || typeof targetLocale !== 'string' || typeof sourceVideoPath !== 'string') {
    throw new UsageError('dub submit needs --file JOB.json, or --source-locale, --target-locale and --video');
  }
  return { sourceLocale, targetLocale, sourceVideoPath, ...(typeof values.export === 'string' ? { exportPath: values.export } : {}) } as DubbingJobRequest;
}

function bar(fraction: number, width = 20): string {
  const full = Math.round(Math.min(1, Math.max(0, fraction)) * width);
  return `[${'#'.repeat(full)}${'.'.repeat(width - full)}]`;
}

function printJob(job: { requestId: string; status: string; exportPath?: string | undefined; additionalProducts?: Array<{ product: string; assetPath: string; state?: string | undefined }> | undefined; detailedTrace: string }): void {
  process.stdout.write(`${job.requestId}  ${job.status}${job.exportPath ? `  ${job.exportPath}` : ''}\n`);
  for (const p of job.additionalProducts ?? []) process.stdout.write(`  ${p.product.padEnd(12)} ${(p.state ?? '-').padEnd(16)} ${p.assetPath}\n`);
  const last = job.detailedTrace.trim().split('\n').at(-1);
  if (last) process.stdout.write(`  last: ${last}\n`);
}
