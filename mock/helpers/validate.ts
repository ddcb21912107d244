/**
 * Validation of helper arguments against `HELPER_CONTRACT`: a refused argument throws `MockArgumentError`
 * naming the field and the rule in words, never a JavaScript internal (`Cannot destructure ...`).
 */
import * as z from 'zod/mini';
import { describeError } from '../../src/shared/describe-error.js';
import { type HelperSpec, helperArgs } from '../contract/helpers.js';
import { MockArgumentError, MockTransitionError } from '../engine/errors.js';
import type { Explanation } from '../engine/explain.js';

// zod/mini ships no message locale (bundle size), so the issues are put in words here.
function rule(issue: z.core.$ZodIssue, value: unknown): string {
  // A rule the contract words itself (`{ error: '...' }`) keeps its words.
  if (issue.message !== 'Invalid input' && issue.code !== 'invalid_type') return issue.message;
  switch (issue.code) {
    case 'invalid_type':
      return value === undefined
        ? 'is required'
        : `must be ${issue.expected === 'array' ? 'an' : 'a'} ${issue.expected}`;
    case 'invalid_value':
      return `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
    case 'too_small':
      return `must be at least ${issue.minimum}`;
    case 'too_big':
      return `must be at most ${issue.maximum}`;
    case 'invalid_format':
      return issue.message === 'Invalid input'
        ? `is not in the expected format (${issue.format})`
        : issue.message;
    case 'unrecognized_keys':
      return `has no field ${issue.keys.join(', ')}`;
    case 'invalid_union':
      return 'matches none of the accepted forms (GET /__mock lists them)';
    default:
      return issue.message === 'Invalid input' ? `is invalid (${issue.code})` : issue.message;
  }
}

function at(value: unknown, path: readonly PropertyKey[]): unknown {
  let current = value;
  for (const key of path) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

/** Checks `args` against a helper's contract; throws `MockArgumentError` on the first refused field. */
function checkArguments(name: string, spec: HelperSpec, args: readonly unknown[]): void {
  const schemas = helperArgs(spec);
  if (args.length > schemas.length) {
    throw new MockArgumentError(
      `helpers.${name} takes ${schemas.length} argument(s), got ${args.length}`,
      '',
    );
  }
  schemas.forEach((schema, index) => {
    const result = z.safeParse(schema, args[index]);
    if (result.success) return;
    const issue = result.error.issues[0];
    if (!issue) return;
    const prefix = schemas.length > 1 ? [`args.${index}`] : [];
    const field = [...prefix, ...issue.path.map(String)].join('.');
    const what = field ? `field ${field}` : 'the argument';
    throw new MockArgumentError(
      `helpers.${name}: ${what} ${rule(issue, at(args[index], issue.path))}`,
      field,
    );
  });
}

type Callable = (this: unknown, ...args: unknown[]) => unknown;

/** What a call notes before it runs; the wrapper marks it refused when the helper throws or rejects. */
type CallNote = { refused: boolean; error?: string; explanation?: Explanation } | undefined;

function refuse(note: CallNote, error: unknown): void {
  if (!note) return;
  note.refused = true;
  note.error = describeError(error);
  // A transition the state does not allow says which rule refused it and what would let it through.
  if (error instanceof MockTransitionError) note.explanation = error.explanation;
}

/**
 * Wraps every helper named in `contract` so it checks its arguments first; the helpers' type is unchanged.
 * `onCall` is told of every call before it runs (the journal), and what it returns is marked refused if the
 * call fails.
 */
export function withContract<H extends object>(
  helpers: H,
  contract: Readonly<Record<string, HelperSpec>>,
  onCall: (name: string) => CallNote = () => undefined,
): H {
  const holders: Record<string, unknown> = helpers as Record<string, unknown>;
  for (const [name, spec] of Object.entries(contract)) {
    const [group, action] = name.includes('.') ? name.split('.') : ['', name];
    const holder = group ? holders[group ?? ''] : holders;
    if (typeof holder !== 'object' || holder === null || !action) continue;
    const record = holder as Record<string, unknown>;
    const fn = record[action];
    if (typeof fn !== 'function') continue;
    const original = fn as Callable;
    record[action] = function checked(this: unknown, ...args: unknown[]) {
      const note = onCall(name);
      try {
        checkArguments(name, spec, args);
        const result = original.apply(this, args);
        if (note && result instanceof Promise) {
          return result.catch((error: unknown) => {
            refuse(note, error);
            throw error;
          });
        }
        return result;
      } catch (error) {
        refuse(note, error);
        throw error;
      }
    };
  }
  return helpers;
}
