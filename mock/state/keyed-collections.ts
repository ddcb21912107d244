/**
 * Which collections of the state are keyed by untrusted IDs (records.ts), and how a state parsed from JSON gets
 * their null prototype back.
 */
import type { MockState } from './mock-state.js';
import { keyed } from './records.js';

/**
 * Every collection of the state keyed by IDs, as `[slice, collection]`. A domain adding such a collection
 * lists it here, which gives it the null prototype on restore and per-entry saving in the state file.
 */
export const KEYED_COLLECTIONS = [
  ['accounts', 'byId'],
  ['users', 'byId'],
  ['users', 'idByMobile'],
  ['verification', 'otps'],
  ['kyc', 'byUserId'],
  ['kyc', 'digilockerSessions'],
  ['kyc', 'faceSessions'],
  ['kyc', 'aadhaarOtps'],
  ['kyc', 'uploads'],
  ['kyc', 'nextOutcomes'],
  ['transactions', 'byId'],
  ['transactions', 'idByPartnerReference'],
  ['transactions', 'idsByAccount'],
  ['transactions', 'activeByUser'],
  ['transactions', 'tranchesByAccount'],
  ['transactions', 'outstandingUsdByAccount'],
  ['transactions', 'volumeByAccount'],
  ['webhooks', 'byId'],
  ['webhooks', 'idsByAccount'],
  ['webhooks', 'countsByAccount'],
  ['http', 'idempotency'],
  ['http', 'rateWindows'],
] as const;

/** A slice of the state that holds keyed collections. */
export type KeyedSlice = (typeof KEYED_COLLECTIONS)[number][0];

/** The slice object of `state` by name, as a plain record (for code that walks the collections). */
export function sliceOf(state: MockState, slice: KeyedSlice): Record<string, unknown> {
  return state[slice] as unknown as Record<string, unknown>;
}

/**
 * Gives every keyed collection of `state` a null prototype, in place (a collection that is absent stays
 * absent, for `checkState` to refuse: every one is required). Used on a state parsed from JSON.
 */
function withKeyedCollections(state: MockState): MockState {
  for (const [slice, collection] of KEYED_COLLECTIONS) {
    const holder = sliceOf(state, slice);
    if (!holder || typeof holder !== 'object') continue; // reported by the state schema
    const value = holder[collection];
    if (value && typeof value === 'object' && Object.getPrototypeOf(value) !== null) {
      holder[collection] = keyed(value as Record<string, unknown>);
    }
  }
  return state;
}

/** A deep copy of a state as JSON would carry it, keyed collections included as null-prototype objects. */
export function cloneState(state: MockState): MockState {
  return withKeyedCollections(JSON.parse(JSON.stringify(state)) as MockState);
}
