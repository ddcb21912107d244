/**
 * Answers that explain themselves: which rule fired, where the spec says it, and what input or helper would
 * change the outcome. A refusal, an answer a sandbox value chose and a transition a sandbox value or a rule
 * decided on the clock each carry one. The journal keeps it structured; the `X-Mock-Explain` header carries it as
 * one line of visible ASCII ({@link explainLine}), so a partner in any language reads it without our source.
 */

/** Why the mock answered or moved as it did. */
export interface Explanation {
  /**
   * The rule that fired: an error identifier (`NAME_MISMATCH`, `UNAUTHORIZED`), a sandbox value
   * (`sandbox.bank.pennyDropFails`, see docs/sandbox-values.md) or a helper (`helper.kyc.chooseOutcome`).
   */
  rule: string;
  /** What happened, in words. */
  because: string;
  /** The spec section of the rule (`4.7`, `7.5`). */
  section: string;
  /** What input or helper would change the outcome. */
  change: string;
}

/** Longest header line: far below any server's header limit, long enough for every explanation we write. */
const MAX_LINE = 1_000;

/**
 * The explanation as the `X-Mock-Explain` header carries it: `RULE: because (spec S). Change: change`,
 * visible ASCII only (anything else, newlines included, becomes `?`), at most 1,000 characters.
 * @example
 * ```ts
 * import { explainLine } from 'inr-payouts/mock';
 * explainLine({ rule: 'UNAUTHORIZED', because: 'the Bearer key names no account', section: '5', change: 'send a key' });
 * // 'UNAUTHORIZED: the Bearer key names no account (spec 5). Change: send a key'
 * ```
 */
export function explainLine(explanation: Explanation): string {
  const { rule, because, section, change } = explanation;
  const line = `${rule}: ${because} (spec ${section}). Change: ${change}`.replace(/[^\x20-\x7e]/g, '?');
  return line.length > MAX_LINE ? `${line.slice(0, MAX_LINE - 3)}...` : line;
}
