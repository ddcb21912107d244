/**
 * The journal as a helper: `helpers.journal(filter)`, served as `GET /__mock/journal?type=&userId=&transactionId=`.
 */

import type { ServiceInternals } from '../engine/internals.js';
import type { JournalEntryOf, JournalEntryType, JournalFilter } from '../engine/journal.js';

/** The filter as it may come over HTTP, where every query value is text. */
type JournalQuery<T extends JournalEntryType> = Omit<JournalFilter<T>, 'since'> & { since?: number | string };

/** The journal helper of one service. */
export function journalHelper(mock: ServiceInternals) {
  /**
   * What the mock did, oldest first (the last 10,000 entries): requests, transitions, webhook attempts,
   * timers and helper calls, filtered by type, user, transaction or sequence number.
   * @example
   * ```ts
   * const { userId } = mock.helpers.users.seedVerified({ mobile: '9876543210' });
   * await client.kyc.status(userId);
   * const [request] = mock.helpers.journal({ type: 'request', userId });
   * console.log(request?.status); // 200: `type` narrows the entries
   * ```
   */
  return <T extends JournalEntryType = JournalEntryType>(
    filter: JournalQuery<T> = {},
  ): JournalEntryOf<T>[] => {
    const { since, ...rest } = filter;
    return mock.journal.entries<T>({ ...rest, since: since === undefined ? undefined : Number(since) });
  };
}
