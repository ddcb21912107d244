/**
 * Compares what the two sides of a scenario observed, by shape and not by value: status codes, error
 * identifiers and the error shape (A or B, spec 7.1), the fields each answer carries and their JSON types, the
 * headers that matter (their presence and form), and the steps a scenario recorded (states and their order, and
 * the timings the spec states). IDs, timestamps, amounts and messages are values: never compared.
 */
import { objectOf } from '../state/records.js';
import { diffShapes, shapeOf } from './shape.js';
import type { Difference, Observation, StepObservation, WireExchange } from './types.js';

/**
 * The headers conformance looks at (spec 7.6, 8 and the idempotency rules), lower-case, and the form each is
 * compared by.
 */
export const CONFORMANCE_HEADERS = [
  'content-type',
  'idempotent-replayed',
  'x-ratelimit-limit',
  'x-ratelimit-remaining',
  'x-ratelimit-reset',
] as const;

/** A header's form: what is compared of its value. */
function headerForm(name: string, value: string | undefined): string {
  if (value === undefined) return 'absent';
  if (name === 'content-type') return value.split(';')[0]?.trim().toLowerCase() || 'empty';
  if (name.startsWith('x-ratelimit-')) return /^\d+$/.test(value.trim()) ? 'an integer' : `"${value}"`;
  return `"${value.trim().toLowerCase()}"`;
}

/** Whether an answer is an error: a 4xx or 5xx, or a `success: false` body (shape B outcomes answer 200 too). */
function isError(exchange: WireExchange): boolean {
  return exchange.status >= 400 || objectOf(exchange.body)?.success === false;
}

/** Shape B carries `success: false`; shape A does not (spec 7.1). */
function errorShape(exchange: WireExchange): string {
  return objectOf(exchange.body)?.success === false ? 'shape B' : 'shape A';
}

/** A body path as a reader names it: inside `data` without the envelope, the envelope's own fields as `body.…`. */
function fieldName(path: string): string {
  if (path === '') return '`body`';
  if (path === 'data') return '`data`';
  if (path.startsWith('data.')) return `\`${path.slice(5)}\``;
  if (path.startsWith('data[]')) return `\`${path.slice(4)}\``;
  return `\`body.${path}\``;
}

function identifier(value: unknown): string {
  return typeof value === 'string' ? `\`${value}\`` : 'absent';
}

type Found = Omit<Difference, 'text' | 'index' | 'step'>;

function compareExchanges(mock: WireExchange, sandbox: WireExchange): Found[] {
  const out: Found[] = [];
  if (mock.status !== sandbox.status) {
    out.push({ what: 'status', mock: String(mock.status), sandbox: String(sandbox.status) });
  }
  const errors = isError(mock) && isError(sandbox);
  let sameShape = true;
  if (errors) {
    const [a, b] = [errorShape(mock), errorShape(sandbox)];
    if (a !== b) {
      sameShape = false;
      out.push({ what: 'error shape', mock: a, sandbox: b });
    }
    for (const key of ['error', 'code'] as const) {
      const x = objectOf(mock.body)?.[key];
      const y = objectOf(sandbox.body)?.[key];
      // Presence is the body's shape, compared below; here only two identifiers that disagree.
      if (typeof x === 'string' && typeof y === 'string' && x !== y) {
        out.push({ what: `error identifier \`${key}\``, mock: identifier(x), sandbox: identifier(y) });
      }
    }
  } else if (isError(mock) !== isError(sandbox)) {
    out.push({
      what: 'outcome',
      mock: isError(mock) ? 'an error' : 'a success',
      sandbox: isError(sandbox) ? 'an error' : 'a success',
    });
  }
  for (const name of CONFORMANCE_HEADERS) {
    const [a, b] = [headerForm(name, mock.headers[name]), headerForm(name, sandbox.headers[name])];
    if (a !== b) out.push({ what: `\`${canonical(name)}\` header`, mock: a, sandbox: b });
  }
  // Two error shapes differ in every field: the shape, named once above, says it all.
  if (sameShape) {
    for (const d of diffShapes(shapeOf(mock.body), shapeOf(sandbox.body))) {
      out.push({ what: fieldName(d.path), mock: d.mock, sandbox: d.sandbox });
    }
  }
  return out;
}

/** `x-ratelimit-limit` as the spec writes it, `X-RateLimit-Limit`. */
function canonical(name: string): string {
  return name
    .split('-')
    .map((part) => (part === 'ratelimit' ? 'RateLimit' : `${part.charAt(0).toUpperCase()}${part.slice(1)}`))
    .join('-');
}

function shown(value: unknown): string {
  return value === undefined ? 'absent' : JSON.stringify(value);
}

function compareSteps(mock: StepObservation, sandbox: StepObservation): Found[] {
  if (mock.compare === 'shape') {
    return diffShapes(shapeOf(mock.value), shapeOf(sandbox.value)).map((d) => ({
      what: d.path === '' ? 'shape' : `\`${d.path}\``,
      mock: d.mock,
      sandbox: d.sandbox,
    }));
  }
  const [a, b] = [shown(mock.value), shown(sandbox.value)];
  return a === b ? [] : [{ what: 'value', mock: a, sandbox: b }];
}

function describe(observation: Observation | undefined): string {
  if (!observation) return 'nothing';
  if (observation.kind === 'stopped') return `stopped (${observation.error})`;
  return observation.kind === 'exchange' ? `${observation.label} (${observation.status})` : observation.label;
}

function difference(step: string, index: number, found: Found): Difference {
  return {
    ...found,
    step,
    index,
    text: `${step}: ${found.what}: mock ${found.mock}, sandbox ${found.sandbox}`,
  };
}

/**
 * Every difference between the two sides' observations, in order. Observations are paired by position; when a
 * pair is not the same kind of thing (another request, another step), the sides took different paths and the
 * comparison stops there with one `order` difference. A side that stopped on an unexpected error adds a
 * difference only when nothing before it already explains it.
 * @example
 * ```ts
 * import { compareObservations } from 'inr-payouts/mock';
 * const step = (value: unknown) => ({ kind: 'step' as const, label: 'transaction.status', value, compare: 'value' as const });
 * compareObservations([step('completed')], [step('failed')])[0]?.text;
 * // 'transaction.status: value: mock "completed", sandbox "failed"'
 * ```
 */
export function compareObservations(
  mock: readonly Observation[],
  sandbox: readonly Observation[],
): Difference[] {
  const out: Difference[] = [];
  const length = Math.max(mock.length, sandbox.length);
  for (let index = 0; index < length; index++) {
    const a = mock[index];
    const b = sandbox[index];
    if (a?.kind === 'stopped' || b?.kind === 'stopped') {
      if (a?.kind === 'stopped' && b?.kind === 'stopped') break;
      if (out.length === 0) {
        const step = (a?.kind === 'stopped' ? b?.label : a?.label) ?? 'stopped';
        out.push(difference(step, index, { what: 'scenario', mock: describe(a), sandbox: describe(b) }));
      }
      break;
    }
    if (!a || !b || a.kind !== b.kind || a.label !== b.label) {
      out.push(
        difference(a?.label ?? b?.label ?? '', index, {
          what: 'order',
          mock: describe(a),
          sandbox: describe(b),
        }),
      );
      break;
    }
    const found =
      a.kind === 'exchange' && b.kind === 'exchange'
        ? compareExchanges(a, b)
        : a.kind === 'step' && b.kind === 'step'
          ? compareSteps(a, b)
          : [];
    for (const f of found) out.push(difference(a.label, index, f));
  }
  return out;
}
