/**
 * Exactly one effect per logical create under seeded chaos (PRODUCT.md, reliability), read off the mock's
 * ledger: `createWithRecovery` under seeds 1 to 50 leaves exactly one transaction (and, prefunded, one payout)
 * per partnerReference and per Idempotency-Key, and its caller learns of every one; a naive client (no key,
 * blind resends) is kept from paying twice only by the service's own refusals (PARTNER_REFERENCE_EXISTS,
 * PENDING_TRANSACTION_EXISTS), and ends believing creates failed that in fact took effect. The same seed gives
 * the same ledger, byte for byte.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { type ChaosRun, CREATES, closeChaosRuns, runNaive, runWithRecovery } from './chaos-ledger.js';

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

  it('a naive client (no Idempotency-Key, blind resends), same seeds: the service refuses its second creates, so it believes creates failed that took effect', async () => {
    const lost: string[] = [];
    for (const seed of SEEDS) {
      const run = await runNaive(seed);
      // Never two transactions for one reference: the resend meets PARTNER_REFERENCE_EXISTS or
      // PENDING_TRANSACTION_EXISTS instead of paying again.
      expect(run.ledger.ok, `seed ${seed}`).toBe(true);
      // No key, so the ledger's key view is empty: only the reference ties a create to its effect.
      expect(run.ledger.byIdempotencyKey).toEqual([]);
      for (const reference of unacknowledged(run)) {
        const outcome = run.outcomes.find((o) => o.reference === reference);
        expect(outcome?.error).toMatch(/^409 (PARTNER_REFERENCE_EXISTS|PENDING_TRANSACTION_EXISTS)$|Error/);
        lost.push(`seed ${seed} ${reference}: ${outcome?.error}`);
      }
    }
    console.info(`naive client: ${lost.length} creates reported failed that took effect`);
    expect(lost.length).toBeGreaterThan(0);
  }, 120_000);

  it('the same seed gives a byte-identical ledger, for either client', async () => {
    for (const seed of [3, 17, 42]) {
      const [a, b] = [await runWithRecovery(seed), await runWithRecovery(seed)];
      expect(JSON.stringify(a.ledger)).toBe(JSON.stringify(b.ledger));
      const [c, d] = [await runNaive(seed), await runNaive(seed)];
      expect(JSON.stringify(c.ledger)).toBe(JSON.stringify(d.ledger));
    }
  }, 60_000);
});
