/**
 * Settings of the dubbing area, read once from the environment when the area registers:
 *
 * | Variable | Default | Meaning |
 * |---|---|---|
 * | `VOXPIPE_DUBBING_STEP_MS` | 500 | Pause after each workflow step (the hosted service takes hours; tests use 0). |
 * | `VOXPIPE_DUBBING_CONCURRENCY` | 2 | Jobs worked on at once. |
 * | `VOXPIPE_S3_ENDPOINT` | none | S3-compatible endpoint for `s3://` source videos (anonymous path-style GET `{endpoint}/{bucket}/{key}`). |
 * | `VOXPIPE_ALLOW_INSECURE_SOURCES` | off | `1` accepts `http://` source videos on loopback hosts (development and tests); otherwise only `https://`. |
 * | `VOXPIPE_SOURCE_TIMEOUT_MS` | 10000 | Timeout of each source-video read. |
 * | `VOXPIPE_DUBBING_PROGRESS_MS` | 5000 | Least time between progress lines in the trace while a step synthesizes. |
 */

/** Settings of the dubbing area. */
export interface DubbingSettings {
  /** Pause after each workflow step, ms. */
  stepDelayMs: number;
  /** Jobs worked on at once. */
  concurrency: number;
  /** S3-compatible endpoint for `s3://` sources, or undefined. */
  s3Endpoint: string | undefined;
  /** Whether `http://` sources on loopback hosts are accepted. */
  allowInsecureSources: boolean;
  /** Timeout of each source-video read, ms. */
  sourceTimeoutMs: number;
  /** Least time between progress lines while a step synthesizes, ms. */
  progressIntervalMs: number;
  /** Bytes read from the head of a source video (`Range: bytes=0-N`). */
  sourceHeadBytes: number;
  /** How often the runner looks for runnable jobs changed by other processes (admin CLI), ms. */
  sweepIntervalMs: number;
  /** Default and largest page size of `GET /dubbing/jobs`. */
  pageSize: number;
  maxPageSize: number;
}

function nonNegative(value: string | undefined, fallback: number): number {
  const n = Number(value);
  return value !== undefined && value !== '' && Number.isFinite(n) && n >= 0 ? n : fallback;
}

/** Reads {@link DubbingSettings} from `env`. */
export function dubbingSettingsFromEnv(env: NodeJS.ProcessEnv = process.env): DubbingSettings {
  return {
    stepDelayMs: nonNegative(env.VOXPIPE_DUBBING_STEP_MS, 500),
    concurrency: Math.max(1, Math.floor(nonNegative(env.VOXPIPE_DUBBING_CONCURRENCY, 2))),
    s3Endpoint: env.VOXPIPE_S3_ENDPOINT || undefined,
    allowInsecureSources: env.VOXPIPE_ALLOW_INSECURE_SOURCES === '1',
    sourceTimeoutMs: nonNegative(env.VOXPIPE_SOURCE_TIMEOUT_MS, 10_000),
    progressIntervalMs: nonNegative(env.VOXPIPE_DUBBING_PROGRESS_MS, 5000),
    sourceHeadBytes: 64 * 1024,
    sweepIntervalMs: 1000,
    pageSize: 25,
    maxPageSize: 100,
  };
}
