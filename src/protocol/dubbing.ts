/**
 * Wire shapes of managed dubbing jobs (`/dubbing/job*`, host {base_url}), with the field names, enums and
 * required fields of the reference OpenAPI (`DubbingSubmissionRequest`, `DubbingSegment`,
 * `DubbingSubmissionAdditionalSource`, `DubbingSubmissionAdditionalProduct`, `DubbingStatusResponse`,
 * `RedubbingSubmissionRequest`, `RedubbingIssue`). The request schemas carry every field-level rule
 * (types, enums, `s3://` prefixes, BCP-47 language-region locales, segment timing) so the server answers
 * with FastAPI-style 422 items whose `loc` is the zod path under `body`. Shared by client and server; no I/O.
 */
import { z } from 'zod';
import type { ValidationIssue } from '../errors.js';

/** Every job status (`ManagedDubProgressStatusEnum`), in the order of the spec. */
export const DUBBING_JOB_STATUSES = [
  'INTAKE_PREPROCESSING',
  'INTAKE_VALIDATION',
  'INTAKE_FAILED',
  'INTAKE_APPROVED',
  'CASTING',
  'ADAPTGEN_START',
  'ADAPTGEN_MIDWAY',
  'READY_FOR_QC',
  'QC',
  'QC_IN_REVIEW',
  'ADAPTGEN_QC_FIX',
  'READY_FOR_DMX',
  'DMX_DONE',
  'READY_FOR_MIXING',
  'MIXING_IN_PROGRESS',
  'READY_FOR_MIX_QC',
  'MIX_QC_IN_PROGRESS',
  'DELIVERED_TO_CLIENT',
  'CLIENT_REFIX_PROCESSING',
  'CLIENT_REFIX_REJECTED',
  'CLIENT_REFIX',
  'FAILURE',
  'READY_FOR_REDMX',
  'PARKED_REQUEST',
  'PARKED_REQUEST_RECEIVED',
  'REDMX_DONE',
  'REDELIVERED_TO_CLIENT',
] as const;
/** One of {@link DUBBING_JOB_STATUSES}. */
export type DubbingJobStatusName = (typeof DUBBING_JOB_STATUSES)[number];

/** Statuses after which a job does nothing more on its own. */
export const DUBBING_TERMINAL_STATUSES: readonly DubbingJobStatusName[] = [
  'DELIVERED_TO_CLIENT',
  'REDELIVERED_TO_CLIENT',
  'CLIENT_REFIX_REJECTED',
  'INTAKE_FAILED',
  'FAILURE',
];
/** Terminal statuses that mean the job failed. */
export const DUBBING_FAILURE_STATUSES: readonly DubbingJobStatusName[] = ['INTAKE_FAILED', 'FAILURE'];
/** Statuses on which feedback (`PATCH`) is accepted: the job has been delivered. */
export const DUBBING_DELIVERED_STATUSES: readonly DubbingJobStatusName[] = ['DELIVERED_TO_CLIENT', 'REDELIVERED_TO_CLIENT', 'CLIENT_REFIX_REJECTED'];

/** Rough completion fraction (0…1) of a status, for progress displays. Refix statuses restart from 0.2. */
export const DUBBING_STATUS_PROGRESS: Readonly<Record<DubbingJobStatusName, number>> = {
  INTAKE_PREPROCESSING: 0.02,
  INTAKE_VALIDATION: 0.05,
  INTAKE_FAILED: 1,
  INTAKE_APPROVED: 0.1,
  READY_FOR_DMX: 0.12,
  DMX_DONE: 0.15,
  CASTING: 0.2,
  ADAPTGEN_START: 0.3,
  ADAPTGEN_MIDWAY: 0.5,
  READY_FOR_QC: 0.6,
  QC: 0.62,
  QC_IN_REVIEW: 0.65,
  ADAPTGEN_QC_FIX: 0.55,
  READY_FOR_MIXING: 0.7,
  MIXING_IN_PROGRESS: 0.8,
  READY_FOR_MIX_QC: 0.85,
  MIX_QC_IN_PROGRESS: 0.9,
  DELIVERED_TO_CLIENT: 1,
  CLIENT_REFIX_PROCESSING: 0.2,
  CLIENT_REFIX: 0.4,
  CLIENT_REFIX_REJECTED: 1,
  READY_FOR_REDMX: 0.7,
  REDMX_DONE: 0.9,
  REDELIVERED_TO_CLIENT: 1,
  PARKED_REQUEST: 0.5,
  PARKED_REQUEST_RECEIVED: 0.5,
  FAILURE: 1,
};

/** Workflow tiers (`WorkflowTypeEnum`). */
export const DUBBING_WORKFLOW_TYPES = ['AUTOMATED', 'MANAGED', 'MANAGED_HIGH_TIER'] as const;
/** One of {@link DUBBING_WORKFLOW_TYPES}. */
export type DubbingWorkflowType = (typeof DUBBING_WORKFLOW_TYPES)[number];
/** Audio mix strategies (`MixTypeEnum`). */
export const DUBBING_MIX_TYPES = ['UN_STYLE', 'REPLACEMENT'] as const;
/** Deliverable product types (`AdditionalProductsEnum`). */
export const DUBBING_PRODUCTS = ['SDH', 'SRT', 'WEBVTT', 'TRANSCRIPT', 'AS_RECORDED_SCRIPT', 'AUDIO_HINTS', 'SOURCE_VIDEO', 'SOURCE_AUDIO', 'ITT_SUBTITLES'] as const;
/** One of {@link DUBBING_PRODUCTS}. */
export type DubbingProductType = (typeof DUBBING_PRODUCTS)[number];
/** Delivery states of a product (`AdditionalProductStateEnum`). */
export const DUBBING_PRODUCT_STATES = ['PENDING_DELIVERY', 'DELIVERED'] as const;
/** One of {@link DUBBING_PRODUCT_STATES}. */
export type DubbingProductState = (typeof DUBBING_PRODUCT_STATES)[number];
/** Additional source types (`AdditionalSourcesEnum`). */
export const DUBBING_SOURCES = ['AUDIO_HINTS', 'CC_SDH', 'MISC', 'DFXP_SUBTITLES'] as const;
/** Feedback issue categories (`IssueCategory`). */
export const ISSUE_CATEGORIES = ['SYNTHESIS', 'TRANSLATION', 'TIMING', 'MIX'] as const;
/** Feedback issue severities (`IssueSeverity`), nice-to-have to must-fix. */
export const ISSUE_SEVERITIES = ['SUGGESTION', 'MINOR', 'MAJOR', 'CRITICAL'] as const;
/** Feedback issue labels (`IssueLabel`). */
export const ISSUE_LABELS = [
  'ACCENT',
  'ADAPTATION',
  'AUDIO_ARTIFACT',
  'EMOTION',
  'EMPHASIS',
  'MISPRONUNCIATION',
  'MISSING_AUDIO',
  'MIX',
  'RHYTHM',
  'SPEAKER_CONSISTENCY',
  'TIMING_LIPSYNC',
] as const;

/** Adds a pydantic-style `value_error` issue (`msg` becomes `Value error, <message>`). */
function valueError(ctx: { issues: z.core.$ZodRawIssue[]; value: unknown }, message: string, path: PropertyKey[] = []): void {
  ctx.issues.push({ code: 'custom', message, input: ctx.value, path, params: { type: 'value_error' } });
}

/** Private-use or "unknown" region codes that do not name a real region. */
const PRIVATE_REGION = /^(AA|Q[M-Z]|X[A-JL-Z]|ZZ)$/;
const languageNames = new Intl.DisplayNames(['en'], { type: 'language', fallback: 'none' });
const regionNames = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });
/** The English name of a code, or undefined when ICU knows none (or refuses the code). */
const displayName = (names: Intl.DisplayNames, code: string): string | undefined => {
  try {
    return names.of(code);
  } catch {
    return undefined;
  }
};

/**
 * Resolves a BCP-47 tag to its canonical language[-script]-region form (`en-us` → `en-US`, `iw-IL` → `he-IL`),
 * or explains why it is not a real language-region locale (malformed, no region, unknown language or region).
 */
export function resolveLanguageRegion(tag: string): { locale: string } | { error: string } {
  let locale: Intl.Locale;
  try {
    const [canonical] = Intl.getCanonicalLocales(tag.trim());
    if (!canonical) return { error: `'${tag}' is not a BCP-47 language tag` };
    locale = new Intl.Locale(canonical);
  } catch {
    return { error: `'${tag}' is not a BCP-47 language tag` };
  }
  if (!locale.region) return { error: `'${tag}' has no region: use the language-region form, e.g. ${locale.language === 'und' ? 'en' : locale.language}-US` };
  if (locale.language === 'und' || !displayName(languageNames, locale.language)) return { error: `'${tag}' names an unknown language '${locale.language}'` };
  if (PRIVATE_REGION.test(locale.region) || !displayName(regionNames, locale.region)) return { error: `'${tag}' names an unknown region '${locale.region}'` };
  const base = [locale.language, locale.script, locale.region].filter(Boolean).join('-');
  return { locale: base };
}

/** A locale field: a real BCP-47 language-region tag, output in canonical form. */
const localeSchema = z.string().transform((value, ctx) => {
  const resolved = resolveLanguageRegion(value);
  if ('error' in resolved) {
    valueError({ issues: ctx.issues, value }, resolved.error);
    return z.NEVER;
  }
  return resolved.locale;
});

/** S3 bucket names: 3–63 lowercase letters, digits, dots and hyphens. */
const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

/** Splits `s3://bucket/key`, or explains what is wrong with it. Keys with `.`/`..` segments are refused. */
export function parseS3Uri(value: string): { bucket: string; key: string } | { error: string } {
  if (!value.startsWith('s3://')) return { error: "must start with 's3://'" };
  const rest = value.slice(5);
  const slash = rest.indexOf('/');
  const bucket = slash < 0 ? rest : rest.slice(0, slash);
  const key = slash < 0 ? '' : rest.slice(slash + 1);
  if (!BUCKET.test(bucket)) return { error: `'${bucket}' is not a valid S3 bucket name` };
  if (!key || key.endsWith('/')) return { error: 'must name an object: s3://bucket/key' };
  if (key.split('/').some((part) => part === '' || part === '.' || part === '..') || /[\\\0]/.test(key)) {
    return { error: 'the object key must not contain empty, . or .. segments, backslashes or NUL' };
  }
  return { bucket, key };
}

/** A string that must be an `s3://bucket/key` path. */
export const dubbingS3PathSchema = z.string().check((ctx) => {
  const parsed = parseS3Uri(ctx.value);
  if ('error' in parsed) valueError(ctx, parsed.error);
});

/** ISO 8601 date-time as pydantic reads it: a date, optionally a time, optionally a zone (`2024-07-01T12:00:00Z`). */
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:[Zz]|[+-](\d{2}):?(\d{2}))?)?$/;

/** Whether `value` is a real calendar date-time in the {@link DATE_TIME} form (no 30 February, no hour 25). */
function isDateTime(value: string): boolean {
  const m = DATE_TIME.exec(value);
  if (!m) return false;
  const [year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0, zoneHour = 0, zoneMinute = 0] = m.slice(1).map((v) => (v === undefined ? 0 : Number(v)));
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth && hour < 24 && minute < 60 && second < 60 && zoneHour < 24 && zoneMinute < 60;
}

/** A `format: date-time` field (kept as sent). */
export const dubbingDateTimeSchema = z.string().check((ctx) => {
  if (!isDateTime(ctx.value)) {
    ctx.issues.push({
      code: 'custom',
      input: ctx.value,
      message: 'Input should be a valid datetime, expected an ISO 8601 date-time such as 2024-07-01T12:00:00Z',
      params: { type: 'datetime_from_date_parsing', raw: true },
    });
  }
});

/** A millisecond timestamp: a non-negative integer. */
const millisSchema = z.int().min(0);

/** Free-form string metadata. */
export const dubbingMetadataSchema = z.record(z.string(), z.string());

/** One segment to dub (`DubbingSegment`); `timestampStart < timestampEnd`. */
export const dubbingSegmentSchema = z
  .object({
    timestampStart: millisSchema,
    timestampEnd: millisSchema,
    characterName: z.string(),
    characterId: z.string(),
    sourceDialogue: z.string(),
    targetDialogue: z.string().optional(),
    segmentId: z.string().optional(),
  })
  .check((ctx) => {
    if (ctx.value.timestampEnd <= ctx.value.timestampStart) {
      valueError(ctx, `timestampEnd (${ctx.value.timestampEnd}) must be after timestampStart (${ctx.value.timestampStart})`, ['timestampEnd']);
    }
  });
/** One segment to dub. */
export type DubbingSegment = z.infer<typeof dubbingSegmentSchema>;

/** An additional source asset (`DubbingSubmissionAdditionalSource`). */
export const dubbingAdditionalSourceSchema = z.object({ source: z.enum(DUBBING_SOURCES), assetPath: dubbingS3PathSchema });
/** An additional source asset. */
export type DubbingAdditionalSource = z.infer<typeof dubbingAdditionalSourceSchema>;

/** A deliverable product and its delivery state (`DubbingSubmissionAdditionalProduct`). */
export const dubbingAdditionalProductSchema = z.object({
  product: z.enum(DUBBING_PRODUCTS),
  assetPath: dubbingS3PathSchema,
  state: z.enum(DUBBING_PRODUCT_STATES).optional(),
});
/** A deliverable product and its delivery state. */
export type DubbingAdditionalProduct = z.infer<typeof dubbingAdditionalProductSchema>;

/** Flags two products that would be written to the same asset path. */
function uniqueAssetPaths(ctx: { issues: z.core.$ZodRawIssue[]; value: unknown }, products: readonly DubbingAdditionalProduct[] | undefined, field: string): void {
  const seen = new Map<string, number>();
  (products ?? []).forEach((p, i) => {
    const first = seen.get(p.assetPath);
    if (first !== undefined) valueError(ctx, `assetPath is also used by ${field}[${first}]`, [field, i, 'assetPath']);
    else seen.set(p.assetPath, i);
  });
}

/** Body of `POST /dubbing/job` (`DubbingSubmissionRequest`). Only the three source fields are required. */
export const dubbingJobRequestSchema = z
  .object({
    sourceLocale: localeSchema,
    targetLocale: localeSchema,
    /** `s3://bucket/key` or `https://…`; the server checks the head of the file is a real video container. */
    sourceVideoPath: z.string().check((ctx) => {
      if (!/^(s3|https?):\/\//i.test(ctx.value)) valueError(ctx, 'sourceVideoPath must be an s3:// or https:// path');
      else if (ctx.value.startsWith('s3://')) {
        const parsed = parseS3Uri(ctx.value);
        if ('error' in parsed) valueError(ctx, parsed.error);
      }
    }),
    exportPath: dubbingS3PathSchema.optional(),
    contentId: z.string().optional(),
    batchId: z.string().optional(),
    batchName: z.string().optional(),
    workflowType: z.enum(DUBBING_WORKFLOW_TYPES).default('AUTOMATED'),
    mixType: z.enum(DUBBING_MIX_TYPES).default('REPLACEMENT'),
    sourceSpeechTrackPath: dubbingS3PathSchema.optional(),
    sourceMAndETrackPath: dubbingS3PathSchema.optional(),
    uncompressedAudioPath: dubbingS3PathSchema.optional(),
    segments: z.array(dubbingSegmentSchema).optional(),
    titleName: z.string().optional(),
    genreName: z.string().optional(),
    maturityRating: z.string().optional(),
    contentType: z.string().optional(),
    priority: z.int().optional(),
    needByDate: dubbingDateTimeSchema.optional(),
    isVideoWaterMarked: z.boolean().default(false),
    additionalSources: z.array(dubbingAdditionalSourceSchema).optional(),
    additionalProducts: z.array(dubbingAdditionalProductSchema).optional(),
    metadata: dubbingMetadataSchema.optional(),
  })
  .check((ctx) => {
    const v = ctx.value;
    if (v.sourceLocale === v.targetLocale) valueError(ctx, `targetLocale must differ from sourceLocale (both resolve to ${v.targetLocale})`, ['targetLocale']);
    const ids = new Map<string, number>();
    (v.segments ?? []).forEach((s, i) => {
      if (s.segmentId === undefined) return;
      const first = ids.get(s.segmentId);
      if (first !== undefined) valueError(ctx, `segmentId '${s.segmentId}' is also used by segments[${first}]`, ['segments', i, 'segmentId']);
      else ids.set(s.segmentId, i);
    });
    uniqueAssetPaths(ctx, v.additionalProducts, 'additionalProducts');
    (v.additionalProducts ?? []).forEach((p, i) => {
      if (p.assetPath === v.exportPath) valueError(ctx, 'assetPath is the same as exportPath', ['additionalProducts', i, 'assetPath']);
    });
  });
/** A create request as sent (defaults not yet applied). */
export type DubbingJobRequest = z.input<typeof dubbingJobRequestSchema>;
/** A create request after validation: canonical locales, defaults applied. */
export type ParsedDubbingJobRequest = z.output<typeof dubbingJobRequestSchema>;

/** Body of `POST /dubbing/job` responses (`DubbingSubmissionResponse`). */
export interface DubbingJobCreated {
  requestId: string;
}

/** Body of `PUT /dubbing/job/{request_id}`: only the fields present change; `metadata` replaces the old map. */
export const dubbingJobUpdateSchema = z.object({ needByDate: dubbingDateTimeSchema.optional(), metadata: dubbingMetadataSchema.optional() });
/** Body of `PUT /dubbing/job/{request_id}`. */
export type DubbingJobUpdate = z.infer<typeof dubbingJobUpdateSchema>;

/** One reported issue of a feedback submission (`RedubbingIssue`); `timestampStart <= timestampEnd`. */
export const redubbingIssueSchema = z
  .object({
    timestampStart: millisSchema,
    timestampEnd: millisSchema,
    category: z.enum(ISSUE_CATEGORIES),
    severity: z.enum(ISSUE_SEVERITIES),
    label: z.enum(ISSUE_LABELS),
    details: z.string(),
    timestamp: dubbingDateTimeSchema,
    issueId: z.string().optional(),
  })
  .check((ctx) => {
    if (ctx.value.timestampEnd < ctx.value.timestampStart) {
      valueError(ctx, `timestampEnd (${ctx.value.timestampEnd}) must not be before timestampStart (${ctx.value.timestampStart})`, ['timestampEnd']);
    }
  });
/** One reported issue of a feedback submission. */
export type RedubbingIssue = z.infer<typeof redubbingIssueSchema>;

/** Body of `PATCH /dubbing/job/{request_id}` (`RedubbingSubmissionRequest`). */
export const redubbingRequestSchema = z
  .object({
    generalFeedback: z.string(),
    exportPath: dubbingS3PathSchema.optional(),
    issues: z.array(redubbingIssueSchema).default([]),
    revisionNumber: z.int().min(0).optional(),
    additionalProducts: z.array(dubbingAdditionalProductSchema).optional(),
  })
  .check((ctx) => uniqueAssetPaths(ctx, ctx.value.additionalProducts, 'additionalProducts'));
/** A feedback submission as sent. */
export type RedubbingRequest = z.input<typeof redubbingRequestSchema>;
/** A feedback submission after validation. */
export type ParsedRedubbingRequest = z.output<typeof redubbingRequestSchema>;

/** Body of `PATCH` responses (`RedubbingSubmissionResponse`): the job's id (the redub is tracked on the job). */
export interface RedubbingSubmitted {
  requestId: string;
}

/** A product of a job with its delivery state. */
export interface DubbingProductRecord {
  product: DubbingProductType;
  assetPath: string;
  state?: DubbingProductState;
}

/** Body of `GET /dubbing/job/{request_id}` (`DubbingStatusResponse`). */
export interface DubbingJobStatus {
  requestId: string;
  status: DubbingJobStatusName;
  /** Progress trace, one line per event, oldest first. */
  detailedTrace: string;
  /** Where the dubbed output is (or will be) exported. */
  exportPath: string;
  additionalProducts: DubbingProductRecord[];
  metadata: Record<string, string>;
}

/** Body of `GET /dubbing/jobs` (`DubbingStatusListResponse`). */
export interface DubbingJobList {
  items: DubbingJobStatus[];
  /** Present when more pages follow; pass it back as the `next_token` query parameter. */
  nextToken?: string;
}

/** Body of `POST /dubbing/admin/job/{request_id}/advance` (reference-service extension). */
export const dubbingAdvanceSchema = z.object({ decision: z.enum(['approve', 'reject']).default('approve') });
/** A review decision on a job parked at a human-review status. */
export type DubbingReviewDecision = z.output<typeof dubbingAdvanceSchema>['decision'];

/** A FastAPI 422 body (`HTTPValidationError`). */
export interface DubbingValidationErrorBody {
  detail: ValidationIssue[];
}
