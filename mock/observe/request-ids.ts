/**
 * The user and transaction a request is about, as its journal entry names them. The path names them for
 * most routes; a create names its user in the body and its new transaction or user in the answer
 * (`POST /v2/transactions`, `POST /v2/users`), so filtering the journal by user or transaction finds the
 * request that began it.
 */

import type { DeepReadonly, MockState } from '../state/mock-state.js';
import { objectOf, stringField } from '../state/records.js';

/** A body the journal kept whole that may name an ID; a cut or non-JSON body names none. */
function parsed(text: string, cut: boolean): unknown {
  if (cut || !(text.includes('"userId"') || text.includes('"transactionId"'))) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * The IDs a request is about: its path's, else those its body or answer name, and a named transaction's user.
 */
export function requestIds(
  state: DeepReadonly<MockState>,
  params: Readonly<Record<string, string>>,
  sent: { text: string; cut: boolean },
  answered: { text: string; cut: boolean },
): { userId?: string; transactionId?: string } {
  let userId: string | undefined = params.userId;
  let transactionId: string | undefined = params.transactionId;
  if (!userId || !transactionId) {
    const data = objectOf(parsed(answered.text, answered.cut))?.data;
    userId ??= stringField(data, 'userId') ?? stringField(parsed(sent.text, sent.cut), 'userId');
    transactionId ??= stringField(data, 'transactionId');
  }
  if (!userId && transactionId) {
    const byId = state.transactions.byId;
    // Own entries only: the path value may be any text (or a partnerReference).
    if (Object.hasOwn(byId, transactionId)) userId = byId[transactionId]?.userId;
  }
  return { userId, transactionId };
}
