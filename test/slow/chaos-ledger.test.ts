/**
 * Exactly one effect per logical create under seeded chaos (PRODUCT.md, reliability), read off the mock's
 * ledger. The same job queue (a failed try is tried again later, one minute doubling, on the virtual clock) sends
 * six creates under seeds 1 to 50 through three clients:
 * - `createWithRecovery` leaves exactly one transaction (and, prefunded, one payout) per partnerReference and per
 *   Idempotency-Key, and its caller learns of every one;
 * - a naive client (no key, blind resends) that sends a partnerReference is kept from paying twice by the service's
 *   refusals (PARTNER_REFERENCE_EXISTS, PENDING_TRANSACTION_EXISTS), and ends believing creates failed that in
 *   fact took effect;
 * - the same naive client without a partnerReference pays twice: once the first transaction is no longer active,
 *   nothing refuses the resend, and the ledger flags the user with more transactions than creates.
 * The same seed gives the same ledger, byte for byte.
 */
import { afterAll, describe, expect, it } from 'vitest';
import {
  type ChaosRun,
  CREATES,
  closeChaosRuns,
  runNaive,
  runWithRecovery,
} from '../reliability/chaos-ledger.js';

const SEEDS = Array.from({ length: 50 }, (_, i) => i + 1);
afterAll(closeChaosRuns);

/** Logical creates the client reported as failed although the ledger shows their transaction. */
function unacknowledged(run: ChaosRun): string[] {
  const made = new Set(run.ledger.byPartnerReference.filter((r) => r.transactions > 0).map((r) => r.key));
  return run.outcomes.filter((o) => !o.ok && made.has(o.reference)).map((o) => o.reference);
}

describe('seeded chaos and the exactly-once ledger', () => {
  it('createWithRecovery, seeds 1 to 50: exactly one effect per reference and per key, each one known to its caller', async () => {
    let faults = 0;
    for (const seed of SEEDS) {
      const run = await runWithRecovery(seed);
      faults += run.faults;
      const { ledger } = run;
      expect(ledger.ok, `seed ${seed}: ${JSON.stringify(ledger.duplicates)}`).toBe(true);
      expect(ledger.byPartnerReference, `seed ${seed}`).toHaveLength(CREATES);
      expect(ledger.byIdempotencyKey, `seed ${seed}`).toHaveLength(CREATES);
      expect(ledger.unattributedByUser, `seed ${seed}`).toEqual([]);
      expect(ledger.totals.transactions, `seed ${seed}`).toBe(CREATES);
      for (const [index, row] of ledger.byPartnerReference.entries()) {
        expect([row.key, row.transactions, row.payouts]).toEqual([`order-${index}`, 1, index % 2]);
      }
      for (const outcome of run.outcomes) {
        expect(outcome.ok, `seed ${seed} ${outcome.reference}: ${outcome.error}`).toBe(true);
        const row = ledger.byPartnerReference.find((r) => r.key === outcome.reference);
        expect(row?.ids).toEqual([outcome.transactionId]);
      }
    }
    // The chaos really bit: on average more than one fault per run.
    expect(faults).toBeGreaterThan(SEEDS.length);
  }, 120_000);

  it('a naive client with a partnerReference (no Idempotency-Key, blind resends), same seeds: never pays twice, but believes creates failed that took effect', async () => {
    const lost: string[] = [];
    let refusedLater = 0;
    for (const seed of SEEDS) {
      const run = await runNaive(seed, { withReference: true });
      // Never two transactions for one reference: the resend meets PARTNER_REFERENCE_EXISTS or
      // PENDING_TRANSACTION_EXISTS instead of paying again, however much later it comes.
      expect(run.ledger.ok, `seed ${seed}: ${JSON.stringify(run.ledger.duplicates)}`).toBe(true);
      expect(run.ledger.totals.transactions, `seed ${seed}`).toBeLessThanOrEqual(CREATES);
      // No key, so the ledger's key view is empty: only the reference ties a create to its effect.
      expect(run.ledger.byIdempotencyKey).toEqual([]);
      expect(run.ledger.unattributedByUser).toEqual([]);
      for (const reference of unacknowledged(run)) {
        const outcome = run.outcomes.find((o) => o.reference === reference);
        // Its last try met a refusal, or a fault of its own; either way the queue gave up on a paid order.
        if (outcome?.error === '409 PARTNER_REFERENCE_EXISTS') refusedLater++;
        lost.push(`seed ${seed} ${reference}: ${outcome?.error}`);
      }
    }
    console.info(`naive client with a reference: ${lost.length} creates reported failed that took effect`);
    expect(lost.length).toBeGreaterThan(0);
    // Hours later, with the first transaction no longer active, the reference alone refused the resend.
    expect(refusedLater).toBeGreaterThan(0);
  }, 120_000);

  it('the same naive client without a partnerReference, same seeds: users paid twice, flagged in the ledger', async () => {
    let seedsWithDuplicates = 0;
    let secondTransactions = 0;
    let secondPayouts = 0;
    let paidTwiceUnseen = 0;
    for (const seed of SEEDS) {
      const { ledger, outcomes } = await runNaive(seed, { withReference: false });
      // Nothing names a logical create: every transaction is in the per-user view, one user per create.
      expect(ledger.byIdempotencyKey).toEqual([]);
      expect(ledger.byPartnerReference).toEqual([]);
      const rows = ledger.unattributedByUser;
      expect(rows.reduce((sum, r) => sum + r.transactions, 0)).toBe(ledger.totals.transactions);
      expect(rows.length, `seed ${seed}`).toBeLessThanOrEqual(CREATES);
      // The ledger flags exactly the users with more than one transaction, and says so in `ok`.
      expect(ledger.duplicates.map((d) => [d.by, d.key])).toEqual(
        rows.filter((r) => r.transactions > 1).map((r) => ['unattributedByUser', r.key]),
      );
      expect(ledger.ok).toBe(ledger.duplicates.length === 0);
      if (!ledger.ok) seedsWithDuplicates++;
      secondTransactions += ledger.totals.transactions - rows.length;
      secondPayouts += rows.reduce((sum, r) => sum + Math.max(0, r.payouts - 1), 0);
      // The client saw nothing wrong: each create it reported done names one transaction the ledger holds.
      const ids = new Set(rows.flatMap((r) => r.ids));
      for (const outcome of outcomes.filter((o) => o.ok))
        expect(ids.has(outcome.transactionId ?? '')).toBe(true);
      paidTwiceUnseen += rows.filter(
        (r) => r.duplicate && outcomes.some((o) => o.ok && r.ids.includes(o.transactionId ?? '')),
      ).length;
    }
    console.info(
      `naive client without a reference: ${secondTransactions} transactions and ${secondPayouts} payouts too many, in ${seedsWithDuplicates} of ${SEEDS.length} seeds`,
    );
    expect(seedsWithDuplicates).toBeGreaterThan(0);
    // Prefunded creates pay at once: a second transaction there is INR paid twice.
    expect(secondPayouts).toBeGreaterThan(0);
    // And the client reported those creates done, once each.
    expect(paidTwiceUnseen).toBeGreaterThan(0);
  }, 120_000);

  it('the same seed gives a byte-identical ledger, for every client', async () => {
    for (const seed of [3, 17, 42]) {
      const runs: (() => Promise<ChaosRun>)[] = [
        () => runWithRecovery(seed),
        () => runNaive(seed, { withReference: true }),
        () => runNaive(seed, { withReference: false }),
      ];
      for (const run of runs) {
        const [a, b] = [await run(), await run()];
        expect(JSON.stringify(a.ledger)).toBe(JSON.stringify(b.ledger));
      }
    }
  }, 60_000);
});
