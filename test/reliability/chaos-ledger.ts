/**
 * The runs behind the chaos-and-ledger proofs (test/slow/chaos-ledger.test.ts and the guide's printed
 * ledgers): a batch of logical creates under seeded chaos, sent by `createWithRecovery` or by one of two naive
 * clients, and the ledger the mock keeps of them.
 */
import { setupServer } from 'msw/node';
import { createMockService, type Ledger, type MockService } from '../../mock/index.js';
import { mswHandlers } from '../../mock/msw/index.js';
import { APIConnectionError, APIError, PayoutClient, RateLimitError } from '../../src/index.js';

/** Client time-out per attempt (real ms); a latency fault holds a request longer than this. */
export const TIMEOUT_MS = 50;
export const LATENCY_MS = 100;
/** Logical creates per run; odd ones are prefunded, so their payout starts at once. */
export const CREATES = 6;
/** Tries of one logical create, as a partner's job queue would retry it (a 429 burst refuses up to three in a row, twice running at times). */
const TRIES = 12;
/**
 * The job queue's wait before try `attempt` (from 1), on the virtual clock: one minute, doubling, so the last try
 * comes 34 hours after the first, past a standard quote's 30 minutes and a prefunded funding window's 24 hours.
 */
export const retryDelayMs = (attempt: number) => 60_000 * 2 ** (attempt - 1);

/** How one logical create ended, as its client saw it. */
export interface ClientOutcome {
  /** The order's `partnerReference` (the naive client without a reference keeps it to itself). */
  reference: string;
  ok: boolean;
  transactionId?: string;
  error?: string;
}

export interface ChaosRun {
  ledger: Ledger;
  outcomes: ClientOutcome[];
  /** Faults chaos drew during the run. */
  faults: number;
}

const server = setupServer();
let listening = false;

function start(seed: number): MockService {
  if (!listening) {
    server.listen({ onUnhandledRequest: 'error' });
    listening = true;
  }
  const mock = createMockService({ seed: 'chaos-ledger' });
  server.resetHandlers(...mswHandlers(mock));
  mock.helpers.accounts.update({
    limits: { rateLimit: 1_000_000 },
    prefunded: { approved: true, creditLimitUsd: '100000' },
  });
  for (let i = 0; i < CREATES; i++)
    mock.helpers.users.seedVerified({ mobile: `98765432${String(i).padStart(2, '0')}` });
  mock.helpers.faults.chaos({ seed, rate: 0.3, latencyMs: LATENCY_MS });
  return mock;
}

/** Stops the interception; call once after the last run. */
export function closeChaosRuns(): void {
  if (listening) server.close();
  listening = false;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs `body` for one try of a logical create, then (whether it answered or threw) lets a request a latency fault
 * still holds finish before the next, so every run sends its requests in the same order.
 */
async function settled<T>(mock: MockService, body: () => Promise<T>): Promise<T> {
  const latencies = () => mock.helpers.faults.chaosLog().filter((d) => d.kind === 'latency').length;
  const before = latencies();
  try {
    return await body();
  } finally {
    if (latencies() > before) await pause(LATENCY_MS + 40);
  }
}

function finish(mock: MockService, outcomes: ClientOutcome[]): ChaosRun {
  const faults = mock.helpers.faults.chaosLog().length;
  mock.helpers.faults.clear();
  return { ledger: mock.helpers.ledger(), outcomes, faults };
}

function params(mock: MockService, index: number) {
  const userId = Object.keys(mock.state.users.byId)[index] ?? '';
  return {
    userId,
    amount: '100',
    asset: 'USDT',
    network: 'polygon',
    partnerReference: `order-${index}`,
  } as const;
}

const describeError = (error: unknown) =>
  error instanceof Error ? `${error.name}: ${error.message}` : String(error);

/**
 * `createWithRecovery` for each logical create, with one Idempotency-Key per logical create; a partner's job
 * queue tries again (same key) after an error that leaves the outcome open, `retryDelayMs` later.
 * @example
 * const { ledger } = await runWithRecovery(7);
 */
export async function runWithRecovery(seed: number): Promise<ChaosRun> {
  const mock = start(seed);
  const client = new PayoutClient({
    apiKey: mock.sandboxKey,
    baseUrl: mock.baseUrl,
    timeout: TIMEOUT_MS,
    maxRetries: 0,
  });
  const outcomes: ClientOutcome[] = [];
  for (let index = 0; index < CREATES; index++) {
    const body = params(mock, index);
    let error: unknown;
    let outcome: ClientOutcome | undefined;
    for (let attempt = 0; attempt < TRIES && !outcome; attempt++) {
      if (attempt > 0) await mock.helpers.clock.advance(retryDelayMs(attempt));
      try {
        const result = await settled(mock, () =>
          client.transactions.createWithRecovery(body, {
            // One UUID per logical create, the same across tries (spec 8: the key is a UUID).
            idempotencyKey: `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`,
            prefunded: index % 2 === 1,
          }),
        );
        outcome = { reference: body.partnerReference, ok: true, transactionId: result.transactionId };
      } catch (caught) {
        error = caught;
        const open =
          caught instanceof RateLimitError ||
          caught instanceof APIConnectionError ||
          (caught instanceof APIError && (caught.status ?? 0) >= 500);
        if (!open) break;
      }
    }
    outcomes.push(outcome ?? { reference: body.partnerReference, ok: false, error: describeError(error) });
  }
  return finish(mock, outcomes);
}

/** What one plain-fetch create came back with: its transaction, or the failure as `status code` or the error. */
type Sent = { ok: true; transactionId?: string } | { ok: false; error: string };

/** One create as a naive client sends it: plain fetch, no Idempotency-Key, the client's time-out. */
async function send(mock: MockService, prefunded: boolean, body: object): Promise<Sent> {
  try {
    const response = await fetch(`${mock.baseUrl}/v2/transactions${prefunded ? '/prefunded' : ''}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${mock.sandboxKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    const answer = (await response.json()) as {
      data?: { transactionId?: string };
      code?: string;
      error?: string;
    };
    if (response.ok) return { ok: true, transactionId: answer.data?.transactionId };
    return { ok: false, error: `${response.status} ${answer.code ?? answer.error ?? ''}`.trim() };
  } catch (error) {
    return { ok: false, error: describeError(error) };
  }
}

/**
 * A deliberately naive client: plain fetch, no Idempotency-Key, and a job queue that tries the same create again
 * after any failure, `retryDelayMs` later, up to the same number of tries. With `withReference: false` it sends no
 * `partnerReference` either (the spec makes it optional), as most integrations start. Once the transaction a lost
 * answer made is no longer active (a standard one's quote expired after 30 minutes, a prefunded one's funding
 * window closed after 24 hours with its INR paid), only a reference refuses the resend
 * (`PARTNER_REFERENCE_EXISTS`); without one the user gets a second transaction, and a second payout.
 * @example
 * const { ledger, outcomes } = await runNaive(7, { withReference: false });
 */
export async function runNaive(
  seed: number,
  { withReference }: { withReference: boolean },
): Promise<ChaosRun> {
  const mock = start(seed);
  const outcomes: ClientOutcome[] = [];
  for (let index = 0; index < CREATES; index++) {
    const { partnerReference: order, ...fields } = params(mock, index);
    const body = withReference ? { ...fields, partnerReference: order } : fields;
    let last = '';
    let outcome: ClientOutcome | undefined;
    for (let attempt = 0; attempt < TRIES && !outcome; attempt++) {
      if (attempt > 0) await mock.helpers.clock.advance(retryDelayMs(attempt));
      // One try at a time, as a queue's worker runs it: a request a latency fault holds finishes first.
      const sent = await settled(mock, () => send(mock, index % 2 === 1, body));
      if (sent.ok) outcome = { reference: order, ok: true, transactionId: sent.transactionId };
      else last = sent.error;
    }
    outcomes.push(outcome ?? { reference: order, ok: false, error: last });
  }
  return finish(mock, outcomes);
}
