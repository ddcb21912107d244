/**
 * Fault injection: latency, an error status, a dropped connection before or after
 * the work was done. Faults are plain data in state and are taken first in the pipeline, before auth.
 */

import type { ErrorShape } from '../engine/errors.js';
import { errorBody } from '../engine/respond.js';
import type { FaultKind, FaultRecord } from '../state/http.js';
import type { MockState } from '../state/mock-state.js';
import { drawChaos } from './chaos.js';
import { rateLimitBody } from './rate-limit.js';

/** What to inject. */
export interface FaultSpec {
  /** Method and path (route pattern or concrete path) to match; every request when absent. */
  match?: { method?: string; path?: string };
  kind: FaultKind;
  /** Latency in real milliseconds (kind `latency`). */
  ms?: number;
  /** Status of kind `error`, 400 to 599; default 500. */
  status?: number;
  /** How many matching requests it applies to; default 1. */
  times?: number;
}

/** The kinds of fault, as docs/testing-with-the-mock.md lists them. */
export const FAULT_KINDS: readonly FaultKind[] = ['latency', 'error', 'drop', 'drop-after-commit'];

/** Adds a fault; throws on an unknown kind or a bad number. */
export function injectFault(state: MockState, spec: FaultSpec): FaultRecord {
  if (!FAULT_KINDS.includes(spec.kind))
    throw new RangeError(`Unknown fault kind '${spec.kind}': use ${FAULT_KINDS.join(', ')}`);
  const times = spec.times ?? 1;
  if (!Number.isInteger(times) || times < 1)
    throw new RangeError(`times must be a positive integer, got ${times}`);
  if (spec.kind === 'latency' && !(typeof spec.ms === 'number' && spec.ms >= 0)) {
    throw new RangeError('A latency fault needs ms, a non-negative number of milliseconds');
  }
  const status = spec.status ?? 500;
  if (spec.kind === 'error' && !(Number.isInteger(status) && status >= 400 && status <= 599)) {
    throw new RangeError(`An error fault's status must be 400 to 599, got ${status}`);
  }
  state.http.faultSeq += 1;
  const fault: FaultRecord = {
    id: `flt_${state.http.faultSeq}`,
    kind: spec.kind,
    match: { method: spec.match?.method?.toUpperCase(), path: spec.match?.path },
    ms: spec.kind === 'latency' ? spec.ms : undefined,
    status: spec.kind === 'error' ? status : undefined,
    remaining: times,
  };
  state.http.faults.push(fault);
  return fault;
}

/**
 * Removes every waiting fault and ends chaos.
 * @example
 * clearFaults(state);
 */
export function clearFaults(state: MockState): void {
  state.http.faults = [];
  delete state.http.chaos;
}

/**
 * Takes one use of the first fault matching this request, if any; otherwise seeded chaos, when on, may draw one.
 */
export function takeFault(
  state: MockState,
  method: string,
  pattern: string,
  path: string,
): FaultRecord | undefined {
  const index = state.http.faults.findIndex(
    (f) =>
      (!f.match.method || f.match.method === method) &&
      (!f.match.path || f.match.path === pattern || f.match.path === path),
  );
  const fault = state.http.faults[index];
  if (!fault) return drawChaos(state, method, pattern, path);
  fault.remaining -= 1;
  if (fault.remaining <= 0) state.http.faults.splice(index, 1);
  return { ...fault };
}

const STATUS_ERRORS: Record<number, [string, string?]> = {
  400: ['Bad Request'],
  401: ['Unauthorized'],
  403: ['Forbidden'],
  404: ['Not Found'],
  409: ['Conflict'],
  422: ['Unprocessable Entity'],
  500: ['Internal Server Error', 'INTERNAL_ERROR'],
  502: ['Bad Gateway', 'BAD_GATEWAY'],
  503: ['Service Unavailable', 'SERVICE_UNAVAILABLE'],
  504: ['Gateway Timeout', 'GATEWAY_TIMEOUT'],
};

/**
 * The body of an injected error: a 429 looks like the real rate-limit answer, anything else is the status's
 * usual error in the route's shape.
 */
export function faultBody(shape: ErrorShape, status: number): Record<string, unknown> {
  if (status === 429) return rateLimitBody(1);
  const [error, code] = STATUS_ERRORS[status] ?? [status >= 500 ? 'Server Error' : 'Error', undefined];
  return errorBody(shape, { error, message: `Injected fault: the mock answered ${status}`, code });
}
