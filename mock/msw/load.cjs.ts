/**
 * msw for `mock.handlers`, in the CommonJS build (tsup.config.ts puts this file in place of load.ts): required
 * on first use, not when `inr-payouts/mock` loads, so a CommonJS project without msw, or one where msw cannot
 * be required (Jest's default set-up), still gets everything else of the mock.
 */
import type * as Msw from 'msw';
import { mswMissing } from './missing.js';

// The CommonJS build's own `require`: resolves msw from this package, as a partner's `require('msw/node')` does.
declare const require: (id: string) => unknown;

let msw: typeof Msw | undefined;

/** The installed msw, or an error saying how to install it or do without it. */
export function loadMsw(): typeof Msw {
  if (msw) return msw;
  try {
    msw = require('msw') as typeof Msw;
    return msw;
  } catch (error) {
    throw mswMissing(error);
  }
}
