/**
 * Compares what the two sides of a scenario observed, by shape and not by value: status codes, error
 * identifiers and the error shape (A or B, spec 7.1), the fields each answer carries, their JSON types and
 * formats, the headers that matter (their presence, form and unit), and the steps a scenario recorded (states
 * and their order, and the timings the spec states). The target's answers and deliveries are also checked
 * against the published contract (`contract.ts`), for what the reference cannot show (an enum value, a field
 * missing from one item of a list). IDs, timestamps, amounts and messages are values: never compared. What
 * only the mock adds (`x-mock-only`, `mock-own.ts`) and the target leaves out is listed apart, never a
 * difference; an optional field left out in one state is named with the state (`states.ts`).
 */
import { objectOf } from '../state/records.js';
import {
  answerProblems,
  type ContractProblem,
  deliveryProblems,
  loadContractCheck,
} from './contract-problems.js';
import { mockOwnField, mockOwnHeader } from './mock-own.js';
import { UNLISTED_TYPES } from './scenarios/deliveries.js';
import { CONFORMANCE_HEADERS } from './send.js';
import { diffShapes, type ShapeDifference, shapeOf } from './shape.js';
import { listAbsences, stateAt } from './states.js';
import type { Difference, Observation, StepObservation, WireExchange } from './types.js';

/** A time's unit, told by its size: a Unix time in seconds or milliseconds, or seconds from now. */
function timeUnit(seconds: number): string {
  if (seconds >= 1e12) return 'Unix time in milliseconds';
  if (seconds >= 1e9) return 'Unix time in seconds';
  return 'seconds from now';
}

/** A header's form: what is compared of its value (for a time, its unit). */
function headerForm(name: string, value: string | undefined): string {
  if (value === undefined) return 'absent';
  const text = value.trim();
  if (name === 'content-type') return text.split(';')[0]?.trim().toLowerCase() || 'empty';
  const integer = /^\d+$/.test(text);
  if (name === 'x-ratelimit-reset' || name === 'retry-after') {
    if (integer) return `an integer, ${timeUnit(Number(text))}`;
    return name === 'retry-after' && !Number.isNaN(Date.parse(text)) ? 'an HTTP date' : `"${value}"`;
  }
  if (name.startsWith('x-ratelimit-')) return integer ? 'an integer' : `"${value}"`;
  return `"${text.toLowerCase()}"`;
}

/** `retryAfter` in a 429's body is seconds (spec 7.6) in a one-minute window: more than 60 is another unit. */
function retryAfterUnit(body: unknown): string | undefined {
  const value = objectOf(body)?.retryAfter;
  if (typeof value !== 'number') return undefined;
  return value <= 60 ? 'seconds (at most 60)' : 'more than 60 (not seconds of a one-minute window)';
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

/**
 * What one comparison found (`breaking` unless it says `review`); `mockOwn` names the `x-mock-only` mark when the
 * target only left out the mock's own.
 */
type Found = Omit<Difference, 'text' | 'index' | 'step' | 'count' | 'severity'> & {
  severity?: 'review';
  mockOwn?: string;
};

/** What only the target sends (a field, a header) breaks no partner's code: the client lets it pass. */
const onlyTarget = (found: Found): Found =>
  found.mock === 'absent' && found.sandbox !== 'absent' ? { ...found, severity: 'review' } : found;

const own = (found: Found, mark: string | undefined): Found => (mark ? { ...found, mockOwn: mark } : found);

/** A shape difference as a reader names it: the field, or the field's format. */
function shapeFound(d: ShapeDifference, name: (path: string) => string): Found {
  return onlyTarget({
    what: `${name(d.path)}${d.aspect ? ' format' : ''}`,
    mock: d.mock,
    sandbox: d.sandbox,
  });
}

/** What a contract problem names beside its field: its format, or its value outside the enum. */
const ASPECT: Partial<Record<ContractProblem['kind'], string>> = { format: ' format', enum: ' value' };

/** What the reference shows where the target breaks the contract. */
const CONTRACT_SIDE: Record<ContractProblem['kind'], (p: ContractProblem) => string> = {
  type: (p) => p.expected,
  format: (p) => p.expected,
  enum: (p) => `${p.expected} (as the contract lists)`,
  required: (p) => (p.items ? 'on every item' : 'present'),
};

/**
 * The target's breaks of the contract the reference does not share, on paths no shape difference already
 * names (a renamed field is named once, as a rename).
 */
function contractFound(
  mock: readonly ContractProblem[],
  sandbox: readonly ContractProblem[],
  named: readonly string[],
  name: (path: string) => string,
): Found[] {
  const key = (p: ContractProblem) => `${p.path}\u0000${p.kind}\u0000${p.got}`;
  const shared = new Set(mock.map(key));
  const covered = (path: string) =>
    named.some((n) => path === n || path.startsWith(`${n}.`) || path.startsWith(`${n}[]`));
  return sandbox
    .filter((p) => !shared.has(key(p)) && !covered(p.path))
    .map((p) => ({
      what: `${name(p.path)}${ASPECT[p.kind] ?? ''}`,
      mock: CONTRACT_SIDE[p.kind](p),
      sandbox: p.items ? `${p.got} on ${p.items.count} of ${p.items.of} items` : p.got,
      // The client reads enums as open; a delivery's `event` is what a handler dispatches on (a renamed type).
      ...(p.kind === 'enum' && p.path !== 'event' ? { severity: 'review' as const } : {}),
    }));
}

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
        out.push({ what: `error identifier \`${key}\``, mock: `\`${x}\``, sandbox: `\`${y}\`` });
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
    if (a === b) continue;
    const mark = b === 'absent' ? mockOwnHeader(name, sandbox.status) : undefined;
    out.push(own(onlyTarget({ what: `\`${canonical(name)}\` header`, mock: a, sandbox: b }), mark));
  }
  if (mock.status === 429 && sandbox.status === 429) {
    const [a, b] = [retryAfterUnit(mock.body), retryAfterUnit(sandbox.body)];
    if (a && b && a !== b) out.push({ what: '`body.retryAfter` unit', mock: a, sandbox: b });
  }
  // Two error shapes differ in every field: the shape, named once above, says it all.
  if (!sameShape) return out;
  const shapes = diffShapes(shapeOf(mock.body), shapeOf(sandbox.body));
  // A field the contract requires is missing whatever the state; only an optional one is named with it.
  const required = new Set(
    mock.status === sandbox.status
      ? answerProblems(sandbox.method, sandbox.path, sandbox.status, sandbox.body)
          .filter((p) => p.kind === 'required')
          .map((p) => p.path)
      : [],
  );
  out.push(
    ...shapes.map((d) => {
      const mark = d.sandbox === 'absent' ? mockOwnField(mock.method, mock.path, d.path) : undefined;
      const optional = d.sandbox === 'absent' && !mark && !required.has(d.path);
      const state = optional ? stateAt(mock.body, d.path) : undefined;
      const found = shapeFound(d, fieldName);
      return own(state ? { ...found, what: `${found.what} when ${state}` } : found, mark);
    }),
  );
  const named = new Set(shapes.map((d) => d.path));
  for (const a of listAbsences(mock.body, sandbox.body)) {
    if (!named.has(a.path))
      out.push({ what: `${fieldName(a.path)} when ${a.state}`, mock: a.mock, sandbox: 'absent' });
  }
  // Only answers of the same status meet the same schema in the contract.
  if (mock.status === sandbox.status) {
    const [a, b] = [mock, sandbox].map((e) => answerProblems(e.method, e.path, e.status, e.body));
    out.push(...contractFound(a ?? [], b ?? [], [...named], fieldName));
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

const stepField = (path: string) => (path === '' ? 'shape' : `\`${path}\``);

const received = (value: unknown) => (value === undefined ? 'not received' : 'received');

function compareSteps(
  mock: StepObservation,
  sandbox: StepObservation,
  unknown: ReadonlySet<string>,
): Found[] {
  if (mock.compare === 'headers') {
    const [a, b] = [objectOf(mock.value), objectOf(sandbox.value)];
    // A delivery one side never received is named by its envelope's step, not here.
    if (!a || !b) return [];
    const form = (value: unknown) => (value === undefined ? 'absent' : String(value));
    return [...new Set([...Object.keys(a), ...Object.keys(b)])].flatMap((name) => {
      const [x, y] = [form(a[name]), form(b[name])];
      return x === y ? [] : [{ what: `\`${name}\` header`, mock: x, sandbox: y }];
    });
  }
  // A delivery one side never received is that, not every field of it.
  if (mock.compare === 'delivery' && (mock.value === undefined) !== (sandbox.value === undefined))
    return [{ what: 'delivery', mock: received(mock.value), sandbox: received(sandbox.value) }];
  if (mock.compare === 'shape' || mock.compare === 'delivery') {
    const shapes = diffShapes(shapeOf(mock.value), shapeOf(sandbox.value));
    const out = shapes.map((d) => shapeFound(d, stepField));
    if (mock.compare === 'delivery' && sandbox.value !== undefined) {
      const [a, b] = [mock.value, sandbox.value].map((v) => (v === undefined ? [] : deliveryProblems(v)));
      out.push(
        ...contractFound(
          a ?? [],
          b ?? [],
          shapes.map((d) => d.path),
          stepField,
        ),
      );
    }
    return out;
  }
  const [a, b] = [shown(mock.value), shown(sandbox.value)];
  if (a === b || alikeBut(mock.value, sandbox.value, unknown)) return [];
  return [
    { what: 'value', mock: a, sandbox: b, ...(mock.label === UNLISTED_TYPES ? { severity: 'review' } : {}) },
  ];
}

/**
 * Whether two recorded values are the same but for values the contract does not list and the comparison
 * already named (a new status, once named on the answer, is not named again in every state that shows it).
 */
function alikeBut(mock: unknown, sandbox: unknown, unknown: ReadonlySet<string>): boolean {
  if (typeof sandbox === 'string' && unknown.has(sandbox)) return true;
  if (Array.isArray(mock) && Array.isArray(sandbox)) {
    const kept = sandbox.filter((v) => !(typeof v === 'string' && unknown.has(v)));
    return kept.length === mock.length && kept.every((v, i) => alikeBut(mock[i], v, unknown));
  }
  const [a, b] = [objectOf(mock), objectOf(sandbox)];
  if (a && b) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    return [...keys].every((key) => alikeBut(a[key], b[key], unknown));
  }
  return JSON.stringify(mock) === JSON.stringify(sandbox);
}

function describe(observation: Observation | undefined): string {
  if (!observation) return 'nothing';
  if (observation.kind === 'stopped') return `stopped (${observation.error})`;
  return observation.kind === 'exchange' ? `${observation.label} (${observation.status})` : observation.label;
}

function difference(step: string, index: number, { severity, ...found }: Found): Difference {
  return {
    ...found,
    severity: severity ?? 'breaking',
    step,
    index,
    count: 1,
    text: `${step}: ${found.what}: mock ${found.mock}, sandbox ${found.sandbox}`,
  };
}

/** Adds `next` to `out`, or counts it on the same difference seen before (one line, however many requests). */
function add(out: Difference[], next: Difference): void {
  const seen = out.find((d) => d.text === next.text);
  if (seen) seen.count += 1;
  else out.push(next);
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
 * (await compareObservations([step('completed')], [step('failed')]))[0]?.text;
 * // 'transaction.status: value: mock "completed", sandbox "failed"'
 * ```
 */
export async function compareObservations(
  mock: readonly Observation[],
  sandbox: readonly Observation[],
): Promise<Difference[]> {
  await loadContractCheck();
  return compareSides(mock, sandbox).differences;
}

/** What comparing two sides found: the differences, and the steps left uncompared when the sides parted. */
export interface Comparison {
  differences: Difference[];
  /** The mock's own additions (`x-mock-only`) the target left out: no difference, each named once. */
  mockOwn: string[];
  /** The labels of the observations after the point the sides stopped or parted, not compared. */
  notCompared: string[];
}

/**
 * Every difference between the two sides' observations, in order (`compareObservations`), with the steps it
 * could not compare.
 */
export function compareSides(mock: readonly Observation[], sandbox: readonly Observation[]): Comparison {
  const out: Difference[] = [];
  const mockOwn: string[] = [];
  /** The values outside the contract's enums named so far. */
  const unknown = new Set<string>();
  const done = (notCompared: string[]): Comparison => ({ differences: out, mockOwn, notCompared });
  const length = Math.max(mock.length, sandbox.length);
  const rest = (from: number) => {
    const labels = [...mock.slice(from), ...sandbox.slice(from)]
      .filter((o) => o.kind !== 'stopped')
      .map((o) => o.label);
    return [...new Set(labels)];
  };
  for (let index = 0; index < length; index++) {
    const a = mock[index];
    const b = sandbox[index];
    if (a?.kind === 'stopped' || b?.kind === 'stopped') {
      if (a?.kind === 'stopped' && b?.kind === 'stopped') return done([]);
      if (out.length === 0) {
        const step = (a?.kind === 'stopped' ? b?.label : a?.label) ?? 'stopped';
        add(out, difference(step, index, { what: 'scenario', mock: describe(a), sandbox: describe(b) }));
      }
      return done(rest(index));
    }
    if (!a || !b || a.kind !== b.kind || a.label !== b.label) {
      add(
        out,
        difference(a?.label ?? b?.label ?? '', index, {
          what: 'order',
          mock: describe(a),
          sandbox: describe(b),
        }),
      );
      return done(rest(index + 1));
    }
    const found =
      a.kind === 'exchange' && b.kind === 'exchange'
        ? compareExchanges(a, b)
        : a.kind === 'step' && b.kind === 'step'
          ? compareSteps(a, b, unknown)
          : [];
    for (const f of found) {
      const named = f.what.endsWith(' value') ? /^"([^"\\]*)"/.exec(f.sandbox)?.[1] : undefined;
      if (named !== undefined) unknown.add(named);
    }
    for (const { mockOwn: mark, ...f } of found) {
      if (mark === undefined) add(out, difference(a.label, index, f));
      else if (!mockOwn.includes(mark)) mockOwn.push(mark);
    }
  }
  return done([]);
}
