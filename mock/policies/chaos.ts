/**
 * Seeded chaos: instead of faults placed one by one, every matching request draws one at random, at `rate`,
 * from `kinds`. The draws come from mulberry32 seeded by FNV-1a of the seed (`mock/engine/ids.ts`, the generator
 * the IDs already use): its whole state is one 32-bit number kept in `MockState`, so the same seed and the same
 * requests in the same order give the same faults, and a snapshot continues the sequence. A well-known
 * generator rather than Math.random, which cannot be seeded; the one in `engine/ids.ts` rather than a new module or a
 * dependency, because it is already here, tested and tiny.
 */
import type * as z from 'zod/mini';
import { CHAOS_KINDS, ChaosOptions } from '../contract/chaos.js';
import { random, seedToInt } from '../engine/ids.js';
import type { ChaosDraw, ChaosKind, ChaosRecord } from '../state/chaos.js';
import type { FaultRecord } from '../state/http.js';
import type { MockState } from '../state/mock-state.js';

const SERVER_ERRORS = [500, 502, 503, 504] as const;
/** A 429 burst refuses this request and up to this many more in a row. */
const MAX_BURST_FOLLOW_UPS = 2;

/** The options, checked; throws a RangeError naming the rule broken. */
function checkChaosOptions(options: unknown): z.output<typeof ChaosOptions> {
  const parsed = ChaosOptions.safeParse(options);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const where = issue?.path.length ? `${issue.path.join('.')}: ` : '';
  throw new RangeError(
    `Chaos options rejected (${where}${issue?.message}): seed is a number or text, rate 0 to 1, kinds among ${CHAOS_KINDS.join(', ')}, latencyMs whole ms`,
  );
}

/** Starts chaos (replacing any in force); throws with the rule broken on a bad option. */
export function startChaos(state: MockState, options: ChaosOptions): ChaosRecord {
  const { seed, rate = 0.2, kinds = [...CHAOS_KINDS], latencyMs = 2_000, match } = checkChaosOptions(options);
  const chaos: ChaosRecord = {
    seed: String(seed),
    rate,
    kinds: [...new Set(kinds)],
    latencyMs,
    match: { method: match?.method?.toUpperCase(), path: match?.path },
    rng: seedToInt(`chaos:${seed}`),
    requests: 0,
    burstRemaining: 0,
    log: [],
  };
  state.http.chaos = chaos;
  return chaos;
}

/** The most draws the chaos log keeps (the newest; a tenth more before it is cut back). */
const CHAOS_LOG_LIMIT = 10_000;

/**
 * The fault chaos draws for this request, if chaos is on and the draw says so; as a one-use fault record, so
 * the pipeline applies it exactly like an injected one.
 */
export function drawChaos(
  state: MockState,
  method: string,
  pattern: string,
  path: string,
): FaultRecord | undefined {
  const chaos = state.http.chaos;
  if (!chaos) return undefined;
  const { match } = chaos;
  if (match.method && match.method !== method) return undefined;
  if (match.path && match.path !== pattern && match.path !== path) return undefined;
  chaos.requests += 1;
  const draw = (kind: ChaosKind, status?: number): FaultRecord => {
    const entry: ChaosDraw = { request: chaos.requests, method, path, kind, status };
    if (status === undefined) delete entry.status;
    chaos.log.push(entry);
    // Cut in blocks, so the cost stays flat: the log holds between the limit and a tenth more.
    if (chaos.log.length > CHAOS_LOG_LIMIT * 1.1) chaos.log.splice(0, chaos.log.length - CHAOS_LOG_LIMIT);
    return toFault(chaos, kind, status);
  };
  if (chaos.burstRemaining > 0) {
    chaos.burstRemaining -= 1;
    return draw('429', 429);
  }
  // Both numbers are drawn on every request, fault or not, so one request's outcome never shifts the next's.
  const roll = random(chaos);
  const pick = random(chaos);
  if (roll >= chaos.rate) return undefined;
  const kind = chaos.kinds[Math.floor(pick * chaos.kinds.length)] ?? '5xx';
  if (kind === '5xx') return draw(kind, SERVER_ERRORS[Math.floor(random(chaos) * SERVER_ERRORS.length)]);
  if (kind === '429') {
    chaos.burstRemaining = Math.floor(random(chaos) * (MAX_BURST_FOLLOW_UPS + 1));
    return draw(kind, 429);
  }
  return draw(kind);
}

function toFault(chaos: ChaosRecord, kind: ChaosKind, status: number | undefined): FaultRecord {
  const id = `chaos_${chaos.requests}`;
  const base = { id, match: {}, remaining: 0 };
  if (kind === 'latency') return { ...base, kind: 'latency', ms: chaos.latencyMs };
  if (kind === '5xx' || kind === '429') return { ...base, kind: 'error', status };
  return { ...base, kind };
}

/**
 * Reads `--chaos <seed>[,rate=<0..1>][,kinds=<k>+<k>...][,latency=<ms>][,method=<M>]`, the server's flag;
 * throws on a bad one.
 */
export function parseChaosFlag(text: string): ChaosOptions {
  const [seed = '', ...settings] = text.split(',');
  const options: ChaosOptions = { seed };
  for (const setting of settings) {
    const [name, value = ''] = setting.split('=');
    if (name === 'rate') options.rate = Number(value);
    else if (name === 'kinds') options.kinds = value.split('+') as ChaosKind[];
    else if (name === 'latency') options.latencyMs = Number(value);
    else if (name === 'method') options.match = { method: value };
    else {
      throw new RangeError(
        `--chaos: unknown setting '${setting}'; use <seed>[,rate=0.2][,kinds=5xx+429+latency+drop+drop-after-commit][,latency=2000][,method=POST]`,
      );
    }
  }
  checkChaosOptions(options);
  return options;
}
