/**
 * The runs behind the chaos-and-ledger proofs (test/reliability/chaos-ledger.test.ts and the guide's printed
 * ledger): a batch of logical creates under seeded chaos, sent by `createWithRecovery` or by a naive client, and
 * the ledger the mock keeps of them.
 */
import { setupServer } from 'msw/node';
import { createMockService, type Ledger, type MockService } from '../../mock/index.js';
import { APIConnectionError, APIError, PayoutClient, RateLimitError } from '../../src/index.js';

/** Client time-out per attempt (real ms); a latency fault holds a request longer than this. */
export const TIMEOUT_MS = 50;
export const LATENCY_MS = 100;
/** Logical creates per run; odd ones are prefunded, so their payout starts at once. */
export const CREATES = 6;
/** Tries of one logical create, as a partner's job queue would retry it (a 429 burst refuses up to three in a row, twice running at times). */
const TRIES = 12;

/** How one logical create ended, as its client saw it. */
export interface ClientOutcome {
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
  server.resetHandlers(...mock.handlers);
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

/** Runs `body` for one logical create, then lets a request a latency fault still holds finish before the next. */
async function settled<T>(mock: MockService, body: () => Promise<T>): Promise<T> {
  const before = mock.helpers.faults.chaosLog().filter((d) => d.kind === 'latency').length;
  const result = await body();
  const after = mock.helpers.faults.chaosLog().filter((d) => d.kind === 'latency').length;
  if (after > before) await pause(LATENCY_MS + 40);
  return result;
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
 * queue tries again (same key) after an error that leaves the outcome open.
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
    const outcome = await settled(mock, async () => {
      let error: unknown;
      for (let attempt = 0; attempt < TRIES; attempt++) {
        try {
          const result = await client.transactions.createWithRecovery(body, {
            // One UUID per logical create, the same across tries (spec 8: the key is a UUID).
            idempotencyKey: `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`,
            prefunded: index % 2 === 1,
          });
          return { reference: body.partnerReference, ok: true, transactionId: result.transactionId };
        } catch (caught) {
          error = caught;
          const open =
            caught instanceof RateLimitError ||
            caught instanceof APIConnectionError ||
            (caught instanceof APIError && caught.status >= 500);
          if (!open) break;
        }
      }
      return { reference: body.partnerReference, ok: false, error: describeError(error) };
    });
    outcomes.push(outcome);
  }
  return finish(mock, outcomes);
}

/**
 * A deliberately naive client: plain fetch, no Idempotency-Key, and a blind resend of the same body after any
 * failure (time-out, dropped connection, 5xx, 429), up to the same number of tries.
 * @example
 * const { ledger, outcomes } = await runNaive(7);
 */
export async function runNaive(seed: number): Promise<ChaosRun> {
  const mock = start(seed);
  const outcomes: ClientOutcome[] = [];
  for (let index = 0; index < CREATES; index++) {
    const body = params(mock, index);
    const path = index % 2 === 1 ? '/v2/transactions/prefunded' : '/v2/transactions';
    const outcome = await settled(mock, async () => {
      let last = '';
      for (let attempt = 0; attempt < TRIES; attempt++) {
        try {
          const response = await fetch(`${mock.baseUrl}${path}`, {
            method: 'POST',
            headers: { Authorization: `Bearer ${mock.sandboxKey}`, 'Content-Type': 'application/json' },
            body: JSON.stringify(body),
            signal: AbortSignal.timeout(TIMEOUT_MS),
          });
          const answer = (await response.json()) as { data?: { transactionId?: string }; code?: string };
          if (response.ok)
            return { reference: body.partnerReference, ok: true, transactionId: answer.data?.transactionId };
          last = `${response.status} ${answer.code ?? ''}`.trim();
          if (response.status < 500 && response.status !== 429) break;
        } catch (error) {
          last = describeError(error);
        }
      }
      return { reference: body.partnerReference, ok: false, error: last };
    });
    outcomes.push(outcome);
  }
  return finish(mock, outcomes);
}
