/**
 * msw for `mock.handlers`, in the ES module build: imported once when `inr-payouts/mock` loads, if it is
 * installed, so the handlers are built with the very msw module a partner's `msw/node` uses. Without msw (or
 * where msw cannot load) the entry still loads; only reading `mock.handlers` throws, with what to do.
 * The CommonJS build replaces this file with load.cjs.ts (tsup.config.ts), which requires msw on first use.
 */
import type * as Msw from 'msw';
import { mswMissing } from './missing.js';

let msw: typeof Msw | undefined;
let failure: unknown;
try {
  msw = await import('msw');
} catch (error) {
  failure = error;
}

/** The installed msw, or an error saying how to install it or do without it. */
export function loadMsw(): typeof Msw {
  if (msw) return msw;
  throw mswMissing(failure);
}
