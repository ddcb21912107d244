/**
 * The replay bundle: one JSON file holding everything a run of the mock took in (its options, every API
 * request as sent, every helper call, every clock move, every webhook receiver's answer), enough to rebuild
 * the run's state, journal and webhook bodies byte for byte (`createMockService({ replay })`,
 * `inr-payouts-mock --replay bundle.json`). The format is documented in docs/mock-server.md; it is checked
 * with this schema whenever a bundle is loaded, so a hand-edited or truncated file is refused with the field
 * at fault before anything runs.
 */
import * as z from 'zod/mini';
import { ChaosOptions } from '../contract/chaos.js';
import { MockArgumentError } from './errors.js';

/** What `format` says in every bundle. */
export const BUNDLE_FORMAT = 'inr-payouts-mock-bundle';

/** The bundle version this mock writes and reads. */
export const BUNDLE_VERSION = 1;

/**
 * The recording's default byte budget (16 MiB): past it, the oldest steps are let go and a bundle holds only
 * the newest, marked with its `window` (a replay refuses it). A step counts as its JSON's characters, roughly.
 * `createMockService({ budgets: { recordingBytes } })` and `inr-payouts-mock --recorder-budget <MB>` change it.
 */
export const RECORDING_BUDGET_BYTES = 16 * 1024 * 1024;

// Built on the first bundle checked, not at import: most services never load one.
function buildSchemas() {
  const duration = z.union([z.number().check(z.gte(0)), z.string()]);

  const RequestStep = z.object({
    type: z.literal('request'),
    method: z.string().check(z.minLength(1)),
    /** Path and query, relative to the base URL. */
    path: z.string().check(z.startsWith('/')),
    /** Every header as sent, names in lower case, minus the transport's own (host, connection, content-length). */
    headers: z.record(z.string(), z.string()),
    /** The body as text, when it is UTF-8. */
    body: z.optional(z.string()),
    /** The body in base64, when it is not UTF-8 (an uploaded image). */
    bodyBase64: z.optional(z.string()),
    /**
     * What the service answered: a replay answering otherwise has diverged (`--strict-replay` stops on it).
     * Absent when the bundle was taken before the answer was read, or the URL named no route.
     */
    answer: z.optional(
      z.object({
        /** 0 when a fault dropped the connection. */
        status: z.number().check(z.int(), z.gte(0)),
        /** A digest of the body (`fnv1a32:` and 8 hex digits): equal bodies, equal digests. */
        digest: z.optional(z.string()),
      }),
    ),
  });

  const HelperStep = z.object({
    type: z.literal('helper'),
    /** The helper's contract name, `group.action` or a top-level name. */
    name: z.string().check(z.minLength(1)),
    /** The arguments as JSON. */
    args: z.array(z.unknown()),
    /** Positions among `args` that were `undefined` (JSON writes them as null). */
    undefinedArgs: z.optional(z.array(z.number().check(z.int(), z.gte(0)))),
  });

  const ClockStep = z.object({
    type: z.literal('clock'),
    /** `advance` and `runDue` as called on `mock.clock`; `tick` is one step of a real-time clock. */
    action: z.enum(['advance', 'runDue', 'tick']),
    duration: z.optional(duration),
    /** False where the move did not wait for deliveries in flight. */
    wait: z.optional(z.boolean()),
  });

  const Step = z.discriminatedUnion('type', [RequestStep, HelperStep, ClockStep]);

  const WebhookAnswer = z.object({
    /** The step count when the answer came: it is given back to the replay at the same point. */
    atStep: z.number().check(z.int(), z.gte(0)),
    /** The step it came during was still running (rather than finished). */
    during: z.boolean(),
    /**
     * Its place among the bundle's answers as they came (0 first). Answers to attempts in flight together can come
     * in any order; the replay gives them back in this one.
     */
    landed: z.number().check(z.int(), z.gte(0)),
    ok: z.boolean(),
    status: z.optional(z.number().check(z.int())),
    /** The receiver's answer body as kept (absent in bundles that did not keep it). */
    responseBody: z.optional(z.string()),
    error: z.optional(z.string()),
    timedOut: z.optional(z.boolean()),
  });

  const WebhookAttempt = z.object({
    eventId: z.string(),
    /** The wall-clock second the attempt was signed with (the `t` of its signature). */
    timestamp: z.number().check(z.int()),
    /** The step count when it was sent. */
    sentAtStep: z.number().check(z.int(), z.gte(0)),
    /** Absent when the receiver had not answered when the bundle was taken. */
    answer: z.optional(WebhookAnswer),
  });

  const ReplayBundle = z.object({
    format: z.literal(BUNDLE_FORMAT),
    version: z.literal(BUNDLE_VERSION),
    /** The service's options: the replay runs with these whatever else it is given. */
    options: z.object({
      // Requests are rebuilt under it: only an http(s) URL names an API (`javascript:x//` parses as a URL).
      baseUrl: z.string().check(z.url({ protocol: /^https?$/ })),
      seed: z.string(),
      startTime: z.iso.datetime(),
      account: z.record(z.string(), z.unknown()),
      webhookWaitMs: z.number().check(z.gte(0)),
      /** The chaos the service started with (its `chaos` option), which every reset begins again. */
      chaos: z.optional(ChaosOptions),
    }),
    steps: z.array(Step),
    /** Every webhook attempt sent, in the order sent. */
    webhooks: z.array(WebhookAttempt),
    /**
     * Present when the recording let go of its oldest steps (its byte budget or step limit): `steps` starts at
     * step `startsAtStep` of the run (0 first), the webhooks at those sent from there. Such a bundle shows the
     * end of a run but cannot rebuild it: a replay refuses it.
     */
    window: z.optional(
      z.object({
        startsAtStep: z.number().check(z.int(), z.gte(1)),
        /** What let the steps go, in words. */
        reason: z.string(),
      }),
    ),
  });
  return { RequestStep, Step, WebhookAnswer, WebhookAttempt, ReplayBundle };
}

type BundleSchemas = ReturnType<typeof buildSchemas>;
let schemas: BundleSchemas | undefined;

/** A replay bundle, as `mock.bundle()` returns it and `createMockService({ replay })` takes it. */
export type MockBundle = z.output<BundleSchemas['ReplayBundle']>;
/** One input of a bundle (internal: `MockBundle['steps'][number]`). */
export type BundleStep = z.output<BundleSchemas['Step']>;
/** One webhook attempt of a bundle. */
export type BundleWebhook = z.output<BundleSchemas['WebhookAttempt']>;
/** What the service answered a recorded request. */
export type BundleRequestAnswer = NonNullable<z.output<BundleSchemas['RequestStep']>['answer']>;
/** A receiver's recorded answer. */
export type BundleAnswer = z.output<BundleSchemas['WebhookAnswer']>;

/**
 * Checks a bundle (parsed JSON); throws `MockArgumentError` naming the field at fault and what it must be.
 * @example
 * ```ts
 * import { parseBundle } from 'inr-payouts/mock';
 * const checked = parseBundle(JSON.parse(JSON.stringify(mock.bundle())));
 * try {
 *   parseBundle({ ...checked, version: 99 });
 * } catch (error) {
 *   console.log((error as Error).message); // The replay bundle is not valid: field version must be 1 (...)
 * }
 * ```
 */
export function parseBundle(value: unknown): MockBundle {
  schemas ??= buildSchemas();
  const parsed = schemas.ReplayBundle.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const field = issue?.path.map(String).join('.') ?? '';
  const hint =
    issue?.path[0] === 'version'
      ? `this mock reads version ${BUNDLE_VERSION}: replay it with the inr-payouts version that recorded it`
      : (issue?.message ?? 'is invalid');
  throw new MockArgumentError(
    `The replay bundle is not valid: ${field ? `field ${field}` : 'the bundle'} ${describe(issue)} (${hint}). Nothing was replayed.`,
    field,
  );
}

/** Refuses a bundle that cannot rebuild its run: one holding only a window of it (`window`). */
export function replayable(bundle: MockBundle): MockBundle {
  if (bundle.window) {
    throw new MockArgumentError(
      `The replay bundle holds only the run from step ${bundle.window.startsAtStep} on (${bundle.window.reason}): a replay needs every step from the start, or it would serve another state. Nothing was replayed. Reproduce the problem in a fresh service (or restart the server) and take the bundle there, or give the recording a larger budget (budgets.recordingBytes, --recorder-budget).`,
      'window',
    );
  }
  return bundle;
}

function describe(issue: z.core.$ZodIssue | undefined): string {
  if (!issue) return 'is invalid';
  if (issue.code === 'invalid_type') return `must be ${issue.expected}`;
  if (issue.code === 'invalid_value')
    return `must be ${issue.values.map((v) => JSON.stringify(v)).join(' or ')}`;
  if (issue.code === 'invalid_union') return 'matches no step type (request, helper, clock)';
  if (issue.code === 'invalid_format' && issue.format === 'url') return 'must be an http or https URL';
  return `is invalid (${issue.code})`;
}
