/**
 * Properties of the quote (spec 2.2, 2.4, 4.2; rounding in docs/assumptions.md "Quote and exchange rate"):
 * gross = amount × rate and fee = gross × percent, each half-up to the paisa; net = gross − fee exactly.
 */
import { Decimal } from 'decimal.js';
import fc from 'fast-check';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockService } from '../../mock/index.js';
import { quote, requote } from '../../mock/machines/quote.js';
import { mswHandlers } from '../../mock/msw/index.js';
import { PayoutClient } from '../../src/index.js';
import { amountUsd, decimalString } from './arbitraries.js';

const RUNS = 1_000;
/** INR per USD with 2 to 4 decimals. */
const exchangeRate = fc.oneof(decimalString(2, 7_000, 10_000), decimalString(4, 700_000, 1_000_000));
/** The developer fee, a fraction 0 to 0.05 in steps of 0.0001 (a JSON number on the wire). */
const feePercent = fc.oneof(
  fc.constant(0),
  fc.integer({ min: 1, max: 500 }).map((bp) => bp / 10_000),
);
const paisa = (value: Decimal): string => value.toDecimalPlaces(2, Decimal.ROUND_HALF_UP).toFixed(2);

describe('2.4, 4.2: quote arithmetic, for any amount, rate and fee', () => {
  it('2.4: grossInr is amount × rate and feeInr is gross × fee, each half-up to the paisa; netInr + feeInr = grossInr exactly', () => {
    fc.assert(
      fc.property(amountUsd, exchangeRate, feePercent, (amount, rate, fee) => {
        const q = quote(amount, rate, fee);
        const gross = paisa(new Decimal(amount).times(rate));
        expect(q.grossInr).toBe(gross);
        expect(q.feeInr).toBe(paisa(new Decimal(gross).times(String(fee))));
        expect(new Decimal(q.netInr).plus(q.feeInr).toFixed(2)).toBe(q.grossInr);
        for (const figure of [q.grossInr, q.feeInr, q.netInr]) expect(figure).toMatch(/^\d+\.\d{2}$/);
        expect(q.exchangeRate).toBe(rate);
        expect(q.feePercent).toBe(fee);
      }),
      { numRuns: RUNS },
    );
  });

  it('2.2: the fee is never more than 5% of gross, and no fee means net equals gross', () => {
    fc.assert(
      fc.property(amountUsd, exchangeRate, feePercent, (amount, rate, fee) => {
        const q = quote(amount, rate, fee);
        expect(new Decimal(q.feeInr).lte(new Decimal(q.grossInr).times('0.05').plus('0.005'))).toBe(true);
        expect(new Decimal(q.netInr).gte(0)).toBe(true);
        if (fee === 0) expect(q.netInr).toBe(q.grossInr);
      }),
      { numRuns: RUNS },
    );
  });

  it('2.4: more USD never quotes less INR at the same rate and fee', () => {
    fc.assert(
      fc.property(amountUsd, amountUsd, exchangeRate, feePercent, (a, b, rate, fee) => {
        const [low, high] = new Decimal(a).lte(b) ? [a, b] : [b, a];
        expect(new Decimal(quote(low, rate, fee).grossInr).lte(quote(high, rate, fee).grossInr)).toBe(true);
        expect(new Decimal(quote(low, rate, fee).netInr).lte(quote(high, rate, fee).netInr)).toBe(true);
      }),
      { numRuns: RUNS },
    );
  });

  it('2.4: a short or over deposit is requoted at the rate and fee of the original quote', () => {
    fc.assert(
      fc.property(amountUsd, amountUsd, exchangeRate, feePercent, (original, received, rate, fee) => {
        expect(requote(quote(original, rate, fee), received)).toEqual(quote(received, rate, fee));
      }),
      { numRuns: RUNS },
    );
  });
});

describe('4.2: the quote a created transaction carries', () => {
  const mock = createMockService({ seed: 'quote-properties' });
  const server = setupServer(...mswHandlers(mock));
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterAll(() => server.close());
  const client = new PayoutClient({ apiKey: mock.sandboxKey, baseUrl: mock.baseUrl, maxRetries: 0 });
  let users = 0;

  it('4.2, 2.2: a create answers the quote the identities give for its amount, the sandbox rate and the account fee', async () => {
    await fc.assert(
      fc.asyncProperty(amountUsd, exchangeRate, feePercent, async (amount, rate, fee) => {
        mock.helpers.transactions.setExchangeRate(rate);
        mock.helpers.accounts.update({ developerFee: { enabled: fee > 0, percent: fee } });
        users += 1;
        const { userId } = mock.helpers.users.seedVerified({ mobile: `7${String(users).padStart(9, '0')}` });
        const created = await client.transactions.create({ userId, amount, asset: 'USDC', network: 'base' });
        const expected = quote(amount, rate, fee);
        expect(created.quote).toEqual({ ...expected, exchangeRate: Number(rate) });
        expect(new Decimal(created.quote.netInr).plus(created.quote.feeInr).toFixed(2)).toBe(
          created.quote.grossInr,
        );
      }),
      { numRuns: 60 },
    );
  });
});
