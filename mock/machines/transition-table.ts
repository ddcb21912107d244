/**
 * A state machine's transitions as data: the machines look their next state up here, and the diagrams in
 * docs/diagrams/ are drawn from the same tables (scripts/docs/diagrams.ts), so a picture cannot drift from
 * what the mock runs.
 */

/**
 * One arrow: `event` moves a thing in any of `from` to `to`, when the condition `when` holds (in words; the
 * machine decides it). Rows are tried in order, so a row without `when` after guarded rows is the otherwise.
 */
export interface Transition<State extends string, Event extends string, When extends string = string> {
  readonly from: readonly State[];
  readonly event: Event;
  readonly when?: When;
  readonly to: State;
}

/**
 * The first row that moves `state` on `event` and whose condition holds, or undefined when the event is not
 * allowed from `state`.
 */
export function findTransition<State extends string, Event extends string, When extends string>(
  table: readonly Transition<State, Event, When>[],
  state: State,
  event: Event,
  holds: (when: When) => boolean,
): Transition<State, Event, When> | undefined {
  return table.find(
    (row) => row.event === event && row.from.includes(state) && (row.when === undefined || holds(row.when)),
  );
}

/** The states `event` is allowed from (for the refusal's message). */
export function allowedFrom<State extends string, Event extends string>(
  table: readonly Transition<State, Event>[],
  event: Event,
): State[] {
  return [...new Set(table.filter((row) => row.event === event).flatMap((row) => row.from))];
}

/** The status a KYC session shows at `now`: a PENDING one past its life reads EXPIRED before its expiry timer ran. */
export function sessionStatusAt<S extends string>(
  session: { status: S; expiresAt: string },
  now: number,
): S | 'EXPIRED' {
  return session.status === 'PENDING' && now >= Date.parse(session.expiresAt) ? 'EXPIRED' : session.status;
}
