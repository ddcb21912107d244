// The typos a partner made on a first day, each failing to compile against the package's declarations: every
// `@ts-expect-error` below fails the check if its line ever compiles (test/types/typos.test.ts is the same list in
// the repository's own typecheck).
import type {
  Asset,
  Network,
  PayoutClient,
  Transaction,
  TransactionStatus,
  WebhookEventStatus,
} from 'inr-payouts';
import { createMockService, type Duration } from 'inr-payouts/mock';

export function transactionIdOf(done: Transaction): string {
  // @ts-expect-error a read's transaction says `id`; `transactionId` is the create answer's name
  void done.transaction.transactionId;
  return done.transaction.id;
}

// The names a partner reaches for first type requests.
const asset: Asset = 'USDT';
const network: Network = 'polygon';
const status: WebhookEventStatus = 'failed';
// @ts-expect-error a typo of USDT
export const typo: Asset = 'USTD';

export async function firstDay(client: PayoutClient, userId: string): Promise<string> {
  await client.webhooks.list({ status });
  const created = await client.transactions.create({ userId, amount: '100', asset, network });
  return created.transactionId;
}

export function journalStatus(): number | undefined {
  const mock = createMockService();
  const [request] = mock.journal.entries({ type: 'request' });
  const [timer] = mock.journal.entries({ type: 'timer' });
  // @ts-expect-error a timer entry has no HTTP status
  void timer?.status;
  const [attempt] = mock.helpers.webhooks.captured();
  const answered: [string | undefined, number | undefined, string | undefined] = [
    attempt?.event,
    attempt?.status,
    attempt?.responseBody,
  ];
  void answered;
  return request?.status;
}

// A status to wait for is one the spec names: a response's status stays open, an input does not.
export async function waitForPaid(client: PayoutClient, transactionId: string): Promise<string> {
  const wanted: TransactionStatus[] = ['completed', 'failed'];
  const done = await client.transactions.waitForStatus(transactionId, { statuses: wanted });
  // @ts-expect-error a typo of `completed`, which the wait would never see
  await client.transactions.waitForStatus(transactionId, { statuses: ['complete'] });
  return done.transaction.status;
}

// Durations are ms or text in the parser's units (ms, s, m, h, d), up to three parts.
export async function moveTheClock(): Promise<void> {
  const mock = createMockService();
  const steps: Duration[] = [250, '500ms', '10m', '1.5h', '1h30m', '23h59m59s'];
  for (const step of steps) await mock.clock.advance(step);
  await mock.helpers.clock.advance('24h');
  // @ts-expect-error the unit is `m`
  await mock.clock.advance('10 minutes');
  // @ts-expect-error `min` is no unit
  await mock.helpers.clock.advance('10min');
}
