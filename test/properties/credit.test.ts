/**
 * Properties of prefunded credit (spec 2.5, 8 "Prefunded exposure"): through any sequence of prefunded creates,
 * failed payouts and full or short funding, `outstandingUsd + availableUsd = creditLimitUsd`, outstanding is
 * exactly what is still owed, and a create above the available credit is refused.
 */
import { Decimal } from 'decimal.js';
import fc from 'fast-check';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockService } from '../../mock/index.js';
import { creditFigures, fitsAvailable, holdCredit, releaseCredit } from '../../mock/machines/prefunded.js';
import { mswHandlers } from '../../mock/msw/index.js';
import { PayoutClient, UnprocessableEntityError } from '../../src/index.js';
import { amountUsd, decimalString } from './arbitraries.js';

type Step =
  | { kind: 'create'; amount: string; payoutFails: boolean }
  | { kind: 'fund'; pick: number; shortBy: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({
    kind: fc.constant('create' as const),
    amount: amountUsd,
    payoutFails: fc.boolean(),
  }),
  // shortBy 0 pays in full; otherwise that many percent of the amount never arrives.
  fc.record({
    kind: fc.constant('fund' as const),
    pick: fc.nat(),
    shortBy: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 90 })),
  }),
);
const creditLimit = fc.oneof(decimalString(0, 1_000, 200_000), decimalString(2, 100_000, 20_000_000));

describe('2.5: credit arithmetic on its own', () => {
  it('2.5: for any limit and hold/release sequence, outstanding + available = limit while outstanding is within the limit', () => {
    fc.assert(
      fc.property(
        creditLimit,
        fc.array(fc.tuple(fc.boolean(), amountUsd), { maxLength: 30 }),
        (limit, moves) => {
          let outstanding = '0';
          for (const [hold, amount] of moves) {
            const credit = creditFigures(limit, outstanding);
            expect(new Decimal(credit.outstandingUsd).plus(credit.availableUsd).eq(limit)).toBe(true);
            if (hold && fitsAvailable(credit, amount)) outstanding = holdCredit(outstanding, amount);
            if (!hold) outstanding = releaseCredit(outstanding, amount);
            expect(new Decimal(outstanding).gte(0)).toBe(true);
            expect(new Decimal(outstanding).lte(limit)).toBe(true);
          }
        },
      ),
      { numRuns: 1_000 },
    );
  });
});

describe('2.5, 3.1: credit through the client, for any sequence of prefunded creates and fundings', () => {
  const server = setupServer();
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterAll(() => server.close());

  it('2.5: outstandingUsd + availableUsd = creditLimitUsd after every step, outstanding is what is still owed, and a create above availableUsd answers CREDIT_LIMIT_EXCEEDED', async () => {
    await fc.assert(
      fc.asyncProperty(creditLimit, fc.array(step, { minLength: 1, maxLength: 10 }), async (limit, steps) => {
        const mock = createMockService({
          seed: 'credit-properties',
          account: { prefunded: { approved: true, creditLimitUsd: limit } },
        });
        server.resetHandlers(...mswHandlers(mock));
        const client = new PayoutClient({ apiKey: mock.sandboxKey, baseUrl: mock.baseUrl, maxRetries: 0 });
        let owed = new Decimal(0);
        const awaiting: { id: string; amount: string }[] = [];
        for (const [n, s] of steps.entries()) {
          if (s.kind === 'create') {
            const { userId } = mock.helpers.users.seedVerified({ mobile: `6${String(n).padStart(9, '0')}` });
            const fits = owed.plus(s.amount).lte(limit);
            const params = { userId, amount: s.amount, asset: 'USDT', network: 'polygon' } as const;
            if (!fits) {
              const refused = await client.transactions.createPrefunded(params).catch((e: unknown) => e);
              expect(refused).toBeInstanceOf(UnprocessableEntityError);
              expect(refused).toMatchObject({ code: 'CREDIT_LIMIT_EXCEEDED' });
            } else {
              const created = await client.transactions.createPrefunded(params);
              owed = owed.plus(s.amount);
              if (s.payoutFails) {
                // A failed payout owes nothing: its amount leaves outstandingUsd.
                mock.helpers.transactions.failPayout({ transactionId: created.transactionId });
                owed = owed.minus(s.amount);
              } else {
                await mock.clock.advance('11s'); // payout_completed, then awaiting_funds
                awaiting.push({ id: created.transactionId, amount: s.amount });
              }
            }
          } else if (awaiting.length > 0) {
            const [funded] = awaiting.splice(s.pick % awaiting.length, 1);
            if (!funded) throw new Error('no transaction awaiting funds');
            const amount = new Decimal(funded.amount)
              .times(100 - s.shortBy)
              .dividedBy(100)
              .toDecimalPlaces(6, Decimal.ROUND_DOWN);
            await mock.clock.advance(
              mock.helpers.transactions.simulateDeposit({
                transactionId: funded.id,
                amount: amount.toFixed(),
              }),
            );
            // Confirmed receipt subtracts what arrived; a shortfall stays owed.
            owed = owed.minus(amount);
          }
          const credit = await client.account.retrieveCredit();
          expect(new Decimal(credit.outstandingUsd).plus(credit.availableUsd).eq(credit.creditLimitUsd)).toBe(
            true,
          );
          expect(new Decimal(credit.creditLimitUsd).eq(limit)).toBe(true);
          expect(new Decimal(credit.outstandingUsd).eq(owed)).toBe(true);
        }
      }),
      { numRuns: 40 },
    );
  }, 60_000);
});
