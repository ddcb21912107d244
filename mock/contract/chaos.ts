/**
 * The argument of the chaos helper, a table of the contract: `helpers.faults.chaos`, `POST /__mock/faults/chaos`
 * and the server's `--chaos` flag all read it.
 */
import * as z from 'zod/mini';
import type { ChaosKind } from '../state/chaos.js';

/** Every kind of fault chaos draws from, the default `kinds`. */
export const CHAOS_KINDS = [
  '5xx',
  '429',
  'latency',
  'drop',
  'drop-after-commit',
] as const satisfies readonly ChaosKind[];

/** The argument of `helpers.faults.chaos` (and of `POST /__mock/faults/chaos`). */
export const ChaosOptions = z.object({
  /** Any number or text; the same seed replays the same faults. */
  seed: z.union([z.string().check(z.minLength(1)), z.number()]),
  /** Probability that a request draws a fault, 0 to 1. Default 0.2. */
  rate: z.optional(z.number().check(z.gte(0), z.lte(1))),
  /** Default: all five. */
  kinds: z.optional(z.array(z.enum(CHAOS_KINDS)).check(z.minLength(1))),
  /** How long a latency fault holds a request, real ms. Default 2000: set the client's timeout below it. */
  latencyMs: z.optional(z.number().check(z.int(), z.gte(0), z.lte(600_000))),
  /** Only requests matching this draw; e.g. `{ method: 'POST' }`. Default: every API request. */
  match: z.optional(z.object({ method: z.optional(z.string()), path: z.optional(z.string()) })),
});
/** @inheritDoc ChaosOptions */
export type ChaosOptions = z.input<typeof ChaosOptions>;
