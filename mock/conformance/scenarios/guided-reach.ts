/**
 * What a guided run reaches, apart from its scenario (transactions.ts): the report's coverage reads it without
 * loading the scenarios, which `inr-payouts/mock` loads only on a run.
 */

/** The guided run's scenario ID. */
export const GUIDED_SCENARIO_ID = 'transactions.guided-flow';

/** The events a standard transaction's success path promises, each about the transaction (spec 6.2). */
export const SUCCESS_EVENTS = [
  'transaction.created',
  'transaction.deposit_detected',
  'transaction.deposit_confirmed',
  'transaction.payout_initiated',
  'transaction.payout_completed',
];

/**
 * What a guided run reaches on a target without the mock's helpers: the create and the read with a success, and
 * the success path's events. The user's events come before the run (the partner onboards the user), the sweep
 * lands after its waits end, and the failure paths need the mock's failure amounts and clock.
 */
export const GUIDED_REACH: { endpoints: readonly string[]; events: readonly string[] } = {
  endpoints: ['POST /v2/transactions', 'GET /v2/transactions/:transactionId'],
  events: SUCCESS_EVENTS,
};
