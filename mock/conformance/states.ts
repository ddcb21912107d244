/**
 * Presence by state: a field the spec makes optional can still be one the mock always sends in a given state (a
 * payout's `utr` once it completed). A target that leaves it out there is named with the state, in a single
 * answer and among a list's items of that state (where, across states, the field looks merely optional).
 */
import { objectOf } from '../state/records.js';
import { describeTypes, shapeOf } from './shape.js';

/** A field one side left out in a state: its path as shapes name it, the state, and the reference's types. */
export interface StateAbsence {
  path: string;
  /** `` `payout.status` is "completed" ``. */
  state: string;
  mock: string;
}

function at(body: unknown, keys: readonly string[]): unknown {
  let node = body;
  for (const key of keys) node = objectOf(node)?.[key];
  return node;
}

/**
 * The state a field at `path` (`data.payout.utr`) is in: the `status` of the nearest object above it that has
 * one (`data.payout.status`), or undefined.
 */
export function stateAt(body: unknown, path: string): string | undefined {
  if (path.includes('[]')) return undefined;
  const keys = path.split('.');
  for (let depth = keys.length - 1; depth >= 0; depth--) {
    const holder = keys.slice(0, depth);
    const status = objectOf(at(body, holder))?.status;
    if (typeof status === 'string') {
      const name = [...holder, 'status'].filter((k) => k !== 'data').join('.');
      return `\`${name}\` is ${JSON.stringify(status)}`;
    }
  }
  return undefined;
}

const itemsOf = (value: unknown) =>
  Array.isArray(value) ? value.flatMap((item) => (objectOf(item) ? [objectOf(item) ?? {}] : [])) : [];

/**
 * The fields every reference item of a state carries and no target item of that state does, in the lists at
 * the same place of both bodies (`data[]`, `data.items[]`), by the items' `status`.
 */
export function listAbsences(mock: unknown, sandbox: unknown, path = 'data'): StateAbsence[] {
  const [a, b] = [at(mock, path.split('.')), at(sandbox, path.split('.'))];
  if (Array.isArray(a) && Array.isArray(b)) return absencesIn(itemsOf(a), itemsOf(b), `${path}[]`);
  const [x, y] = [objectOf(a), objectOf(b)];
  if (!x || !y) return [];
  return Object.keys(x).flatMap((key) =>
    Array.isArray(x[key]) ? listAbsences(mock, sandbox, `${path}.${key}`) : [],
  );
}

function absencesIn(
  mock: readonly Record<string, unknown>[],
  sandbox: readonly Record<string, unknown>[],
  path: string,
): StateAbsence[] {
  const out: StateAbsence[] = [];
  const states = new Set(mock.map((item) => item.status).filter((s) => typeof s === 'string'));
  for (const state of states) {
    const ours = mock.filter((item) => item.status === state);
    const theirs = sandbox.filter((item) => item.status === state);
    if (theirs.length === 0) continue;
    const always = Object.keys(ours[0] ?? {}).filter((key) => ours.every((item) => item[key] !== undefined));
    for (const key of always) {
      if (theirs.some((item) => item[key] !== undefined)) continue;
      out.push({
        path: `${path}.${key}`,
        state: `\`status\` is ${JSON.stringify(state)}`,
        mock: describeTypes(shapeOf(ours[0]?.[key])),
      });
    }
  }
  return out;
}
