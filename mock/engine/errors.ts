/**
 * Errors of the mock: `MockApiError` becomes an HTTP answer in the route's error shape; the helper errors
 * are thrown to the test that called a helper.
 */
import type { Explanation } from './explain.js';

/** `Not Found` → `NOT_FOUND`: the code shape A carries when a resolver gave none. */
export function codeFromError(error: string): string {
  return error
    .trim()
    .replace(/[^A-Za-z0-9]+/g, '_')
    .toUpperCase();
}

/**
 * The two error body shapes of spec 7.1 (docs/assumptions.md says which endpoint uses which): A is
 * `{ error, message, code, ...context }`, B is `{ success: false, error, message, data?, ...context }`.
 */
export type ErrorShape = 'A' | 'B';

/**
 * An error body before it is put in a shape: `code` is dropped in shape B, derived from `error` in shape A
 * when absent; any other field (`attemptsRemaining`, `retryAfter`, `data`, `details`) rides along.
 */
export interface ApiErrorBody {
  error: string;
  message: string;
  code?: string;
  [extra: string]: unknown;
}

/**
 * Thrown by a resolver to answer an error. State changes made before the throw are kept (the mock has no
 * rollback), so a resolver checks before it writes, unless the spec wants the write (an OTP attempt counts).
 * @example
 * ```ts
 * import { MockApiError } from 'inr-payouts/mock';
 * // In a resolver: answer 409 in the route's shape.
 * const error = new MockApiError(409, { error: 'Conflict', message: 'Mobile number already registered', code: 'USER_EXISTS' });
 * console.log(error.status, error.body.code); // 409 USER_EXISTS
 * ```
 */
export class MockApiError extends Error {
  override readonly name = 'MockApiError';
  /** Why the mock refused, in words (`RULE: message`); the pipeline completes it into the `X-Mock-Explain` line. */
  readonly explain: string;
  /** The parts of the explanation the thrower knows; the pipeline adds the route's section and the rule's change. */
  readonly why: Partial<Explanation>;
  constructor(
    readonly status: number,
    readonly body: ApiErrorBody,
    /** Overrides the route's shape; normally left out. */
    readonly shape?: ErrorShape,
    /** Which rule fired, its spec section and what would change it; defaults from the error's identifier. */
    why: Partial<Explanation> = {},
  ) {
    super(body.message);
    this.why = why;
    this.explain = `${why.rule ?? body.code ?? codeFromError(body.error)}: ${why.because ?? body.message}`;
  }
}

/**
 * A helper was called with something that does not exist (an unknown user or account).
 * @example
 * ```ts
 * import { MockHelperError } from 'inr-payouts/mock';
 * try {
 *   mock.helpers.otp.read({ userId: 'usr_x', channel: 'mobile' });
 * } catch (error) {
 *   console.log(error instanceof MockHelperError); // true: no such user
 * }
 * ```
 */
export class MockHelperError extends Error {
  override readonly name: string = 'MockHelperError';
}

/**
 * A helper was called with an argument its contract refuses; `field` names the offending field (`''` when the
 * argument as a whole is wrong). Over HTTP it answers 400 with `code: 'INVALID_HELPER_ARGUMENT'`.
 * @example
 * ```ts
 * import { MockArgumentError } from 'inr-payouts/mock';
 * try {
 *   mock.helpers.kyc.aadhaarOtp({ referenceId: 42 } as never);
 * } catch (error) {
 *   console.log(error instanceof MockArgumentError && error.field); // 'referenceId'
 * }
 * ```
 */
export class MockArgumentError extends MockHelperError {
  override readonly name: string = 'MockArgumentError';
  constructor(
    message: string,
    /** The offending field's path, dot-separated (`users.0.mobile`); `''` for the argument as a whole. */
    readonly field: string,
  ) {
    super(message);
  }
}

/** What a refused transition was about. */
export interface TransitionRefusal {
  /** What was asked to move, for example `document-locker session dls_1`. */
  subject: string;
  /** What was asked, for example `approve`. */
  action: string;
  /** The state it is in. */
  state: string;
  /** The states the action is allowed from. */
  allowed: string[];
  /** What to do instead. */
  hint?: string;
  /** The spec section of the state machine; default `3` (states and transitions). */
  section?: string;
}

/**
 * A test helper asked for a transition the current state does not allow (Stripe test-helper style).
 * @example
 * ```ts
 * import { createMockService, MockTransitionError } from 'inr-payouts/mock';
 *
 * const mock = createMockService();
 * const [user] = mock.helpers.seed({ users: [{ mobile: '9876543210', mobileVerified: true }] }).users;
 * try {
 *   mock.helpers.verification.complete({ userId: user?.userId ?? '', channel: 'mobile' });
 *   throw new Error('unreachable');
 * } catch (error) {
 *   if (!(error instanceof MockTransitionError)) throw error;
 *   // error.state === 'verified', error.allowed → ['unverified']
 * }
 * ```
 */
export class MockTransitionError extends MockHelperError {
  override readonly name = 'MockTransitionError';
  readonly state: string;
  readonly allowed: string[];
  /** Which rule refused the transition, for the journal's helper entry. */
  readonly explanation: Explanation;
  /** From a refusal; or, relaying a server's answer (`connectMock`), from its message, state and allowed. */
  constructor(refusal: TransitionRefusal | { message: string; state: string; allowed: string[] }) {
    const allowed = refusal.allowed.length ? refusal.allowed.join(', ') : 'no state';
    super(
      'message' in refusal
        ? refusal.message
        : `Cannot ${refusal.action} ${refusal.subject}: it is ${refusal.state}, and this is allowed only from ${allowed}.` +
            (refusal.hint ? ` ${refusal.hint}` : ''),
    );
    this.state = refusal.state;
    this.allowed = refusal.allowed;
    this.explanation = {
      rule: 'TRANSITION_REFUSED',
      because:
        'message' in refusal
          ? refusal.message
          : `cannot ${refusal.action} ${refusal.subject}: it is ${refusal.state}, allowed only from ${allowed}`,
      section: ('section' in refusal && refusal.section) || '3',
      change: ('hint' in refusal && refusal.hint) || `call it only while it is ${allowed}`,
    };
  }
}
