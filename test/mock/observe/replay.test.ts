/**
 * Exact replays: any run of API calls (through the real client, over MSW, with its own idempotency keys and
 * retries), helper calls, clock moves, faults and webhook answers, recorded with `mock.bundle()` and written
 * to JSON, rebuilds in a fresh service to the same state, journal and webhook bodies, byte for byte.
 */
import fc from 'fast-check';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockService, type MockBundle, type MockService } from '../../../mock/index.js';
import { mswHandlers } from '../../../mock/msw/index.js';

type Network = 'polygon' | 'base' | 'solana';
const EVENT_TYPES = ['user.created', 'transaction.payout_failed', 'user.kyc_updated'] as const;

type Command =
  | { kind: 'createUser'; mobile: number }
  | { kind: 'sendOtp'; user: number }
  | { kind: 'confirmOtp'; user: number; right: boolean }
  | { kind: 'seedVerified'; mobile: number }
  | { kind: 'createTransaction'; user: number; amount: number; network: Network }
  | { kind: 'deposit'; transaction: number; short: boolean }
  | { kind: 'getTransaction'; transaction: number }
  | { kind: 'keyedCreate'; key: number; mobile: number }
  | { kind: 'fault'; fault: 'error' | 'drop' | 'drop-after-commit'; times: number }
  | { kind: 'chaos'; seed: number; rate: number }
  | { kind: 'trigger'; type: (typeof EVENT_TYPES)[number] }
  | { kind: 'advance'; ms: number; helper: boolean }
  | { kind: 'runDue' }
  | { kind: 'refusedHelper' };

const command: fc.Arbitrary<Command> = fc.oneof(
  fc.record({ kind: fc.constant('createUser' as const), mobile: fc.nat(20) }),
  fc.record({ kind: fc.constant('sendOtp' as const), user: fc.nat() }),
  fc.record({ kind: fc.constant('confirmOtp' as const), user: fc.nat(), right: fc.boolean() }),
  // The transaction path (a ready user, a create, a deposit) weighs more: it is where most events come from.
  {
    weight: 3,
    arbitrary: fc.record({ kind: fc.constant('seedVerified' as const), mobile: fc.nat(20) }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('createTransaction' as const),
      user: fc.nat(),
      amount: fc.integer({ min: 5, max: 600 }),
      network: fc.constantFrom<Network>('polygon', 'base', 'solana'),
    }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('deposit' as const),
      transaction: fc.nat(),
      short: fc.boolean(),
    }),
  },
  fc.record({ kind: fc.constant('getTransaction' as const), transaction: fc.nat() }),
  fc.record({ kind: fc.constant('keyedCreate' as const), key: fc.nat(3), mobile: fc.nat(5) }),
  fc.record({
    kind: fc.constant('fault' as const),
    fault: fc.constantFrom('error' as const, 'drop' as const, 'drop-after-commit' as const),
    times: fc.integer({ min: 1, max: 2 }),
  }),
  fc.record({
    kind: fc.constant('chaos' as const),
    seed: fc.nat(),
    rate: fc.double({ min: 0, max: 0.5, noNaN: true }),
  }),
  fc.record({ kind: fc.constant('trigger' as const), type: fc.constantFrom(...EVENT_TYPES) }),
  fc.record({ kind: fc.constant('advance' as const), ms: fc.nat(2 * 86_400_000), helper: fc.boolean() }),
  fc.record({ kind: fc.constant('runDue' as const) }),
  fc.record({ kind: fc.constant('refusedHelper' as const) }),
);

/** The receiver's answers, in turn: a status, or a connection that fails. */
const receiverAnswers = fc.array(fc.constantFrom(200, 204, 400, 500, 503, 'refused' as const), {
  minLength: 1,
  maxLength: 6,
});

const pick = <T>(list: readonly T[], n: number): T | undefined => list[n % Math.max(list.length, 1)];

async function run(mock: MockService, commands: Command[]): Promise<void> {
  // The client's own retries wait on the virtual clock (recorded as clock moves), its keys are random UUIDs.
  const client = mock.createClient({ maxRetries: 2 });
  const users: string[] = [];
  /** Users ready to transact (KYC and bank verified). */
  const verified: string[] = [];
  const transactions: string[] = [];
  const attempt = async (work: () => unknown) => {
    try {
      await work();
    } catch {
      // Refusals, faults and exhausted retries are part of the run.
    }
  };
  for (const c of commands) {
    const userId = pick(users, c.kind === 'sendOtp' || c.kind === 'confirmOtp' ? c.user : 0) ?? 'usr_missing';
    const transactionId = pick(transactions, 'transaction' in c ? c.transaction : 0) ?? 'txn_missing';
    switch (c.kind) {
      case 'createUser':
        await attempt(async () => {
          users.push((await client.users.create({ mobile: `9${String(c.mobile).padStart(9, '0')}` })).userId);
        });
        break;
      case 'sendOtp':
        await attempt(() => client.users.mobile.sendOtp(userId));
        break;
      case 'confirmOtp':
        await attempt(async () => {
          const otp = c.right ? mock.helpers.otp.read({ userId, channel: 'mobile' }).otp : '000000';
          await client.users.mobile.confirm(userId, { otp });
        });
        break;
      case 'seedVerified':
        await attempt(() => {
          users.push(
            mock.helpers.users.seedVerified({ mobile: `8${String(c.mobile).padStart(9, '0')}` }).userId,
          );
        });
        break;
      case 'createTransaction':
        await attempt(async () => {
          const user = pick(verified, c.user) ?? pick(users, c.user) ?? 'usr_missing';
          const created = await client.transactions.create({
            userId: user,
            amount: String(c.amount),
            asset: 'USDT',
            network: c.network,
          });
          transactions.push(created.transactionId);
        });
        break;
      case 'deposit':
        await attempt(async () => {
          const ms = mock.helpers.transactions.simulateDeposit({
            transactionId,
            ...(c.short ? { amount: '1' } : {}),
          });
          await mock.clock.advance(ms);
        });
        break;
      case 'getTransaction':
        await attempt(() => client.transactions.retrieve(transactionId));
        break;
      case 'keyedCreate':
        // A key the test chose, reused with the same or another body: replays and conflicts.
        await attempt(() =>
          mock.dispatch(
            new Request(`${mock.baseUrl}/v2/users`, {
              method: 'POST',
              headers: {
                authorization: `Bearer ${mock.sandboxKey}`,
                'content-type': 'application/json',
                'idempotency-key': `key-${c.key}`,
              },
              body: JSON.stringify({ mobile: `7${String(c.mobile).padStart(9, '0')}` }),
            }),
          ),
        );
        break;
      case 'fault':
        mock.helpers.faults.inject({ kind: c.fault, times: c.times, match: { method: 'POST' } });
        break;
      case 'chaos':
        mock.helpers.faults.chaos({
          seed: c.seed,
          rate: c.rate,
          kinds: ['5xx', '429', 'drop', 'drop-after-commit'],
        });
        break;
      case 'trigger':
        mock.helpers.webhooks.trigger({ type: c.type });
        break;
      case 'advance':
        await (c.helper ? mock.helpers.clock.advance(c.ms) : mock.clock.advance(c.ms));
        break;
      case 'runDue':
        await mock.clock.runDue();
        break;
      case 'refusedHelper':
        await attempt(() => mock.helpers.transactions.completePayout({ transactionId: 'txn_missing' }));
        break;
    }
  }
}

/** What must come out the same: the journal, the webhook bodies, the state (read in that order on both). */
function outcome(mock: MockService): { journal: string; bodies: string; snapshot: string } {
  const journal = JSON.stringify(mock.journal.entries());
  const bodies = JSON.stringify(mock.helpers.webhooks.captured().map((d) => d.body));
  return { journal, bodies, snapshot: JSON.stringify(mock.helpers.snapshot()) };
}

describe('exact replays', () => {
  const server = setupServer();
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterAll(() => server.close());

  it('rebuild any recorded run of API calls, helper calls, clock moves and webhook answers byte for byte', async () => {
    const seen = { transitions: 0, deliveries: 0, faults: 0 };
    await fc.assert(
      fc.asyncProperty(
        fc.array(command, { minLength: 1, maxLength: 40 }),
        receiverAnswers,
        async (commands, answers) => {
          const mock = createMockService({
            seed: 'replay-properties',
            account: { webhookUrl: 'https://partner.test/hooks' },
          });
          server.resetHandlers(...mswHandlers(mock));
          let turn = 0;
          mock.helpers.webhooks.useFetch(async () => {
            const answer = answers[turn++ % answers.length];
            if (answer === 'refused') throw new TypeError('fetch failed');
            return new Response(null, { status: answer });
          });
          await run(mock, commands);
          await mock.helpers.webhooks.settle();
          // The file a partner attaches: through JSON and back. Taking it is not an input, nor journalled.
          const bundle = JSON.parse(JSON.stringify(mock.bundle())) as MockBundle;
          const recorded = outcome(mock);
          seen.transitions += mock.journal.entries({ type: 'transition' }).length;
          seen.deliveries += bundle.webhooks.length;
          seen.faults += mock.journal
            .entries({ type: 'request' })
            .filter((e) => e.type === 'request' && e.fault).length;

          const replayed = createMockService({ replay: bundle });
          const summary = await replayed.replayed;
          expect(summary?.diverged).toEqual([]);
          const again = outcome(replayed);
          expect(again.journal).toBe(recorded.journal);
          expect(again.bodies).toBe(recorded.bodies);
          expect(again.snapshot).toBe(recorded.snapshot);
          // The replay records itself: its bundle starts with the one it was given.
          expect(replayed.bundle().steps.slice(0, bundle.steps.length)).toEqual(bundle.steps);
        },
      ),
      { numRuns: 60 },
    );
    // The runs reached what makes replays hard: state machines moving, webhooks answered, faults drawn.
    expect(seen.transitions).toBeGreaterThan(0);
    expect(seen.deliveries).toBeGreaterThan(0);
    expect(seen.faults).toBeGreaterThan(0);
  }, 120_000);
});
