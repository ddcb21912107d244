/**
 * The journal's subscription to its service's stream: each answered API exchange becomes a request entry, each
 * transition a transition entry. Webhook attempts, timers and helper calls are recorded where they happen.
 */
import type { MockState } from '../state/mock-state.js';
import { objectOf, stringField } from '../state/records.js';
import type { Exchange } from './exchange.js';
import { capBody, type Journal, type JournalRequest, type JournalTransition } from './journal.js';
import type { StreamListener } from './stream.js';

/**
 * The user and transaction a request is about: its path's, else those its answer or body name (a create names
 * its user in the body and its new user or transaction in the answer), and a named transaction's user.
 */
function requestIds(state: MockState, exchange: Exchange): { userId?: string; transactionId?: string } {
  let userId: string | undefined = exchange.params.userId;
  let transactionId: string | undefined = exchange.params.transactionId;
  const byId = state.transactions.byId;
  // Own entries only: the path value may be any text, or a partnerReference (spec 4.2), whose read names the
  // transaction it found in its answer: the read is filed under that transaction.
  const known = transactionId !== undefined && Object.hasOwn(byId, transactionId);
  if (!userId || !known) {
    const data = objectOf(exchange.answer?.body)?.data;
    // A body that does not name a user is not parsed for it.
    const sent = !userId && exchange.text.includes('"userId"') ? exchange.json()?.value : undefined;
    userId ??= stringField(data, 'userId') ?? stringField(sent, 'userId');
    const read = stringField(objectOf(data)?.transaction, 'id') ?? stringField(data, 'transactionId');
    if (!known && read !== undefined && Object.hasOwn(byId, read)) transactionId = read;
    else transactionId ??= read;
  }
  if (!userId && transactionId && Object.hasOwn(byId, transactionId)) userId = byId[transactionId]?.userId;
  return { userId, transactionId };
}

function recordRequest(journal: Journal, state: MockState, exchange: Exchange): void {
  const { answer, route } = exchange;
  if (!answer || !route) return;
  const text = exchange.text;
  const sent = capBody(text);
  const answered = capBody(answer.text ?? '');
  const key = answer.idempotencyKey;
  const { userId, transactionId } = requestIds(state, exchange);
  journal.record<JournalRequest>(state, {
    type: 'request',
    method: exchange.method,
    path: exchange.path,
    route: route.path,
    status: answer.status,
    idempotencyKey: key,
    replayed: key ? answer.replayed === true : undefined,
    rateLimit: answer.rateLimit,
    fault: answer.fault,
    explain: answer.explain,
    explanation: answer.explanation,
    userId,
    transactionId,
    // The bodies and query, so the inspector can show the exchange and repeat it (`copy as curl`).
    query: exchange.search,
    requestBody: text ? sent.text : undefined,
    requestBodyCut: sent.cut || undefined,
    responseBody: answered.text || undefined,
    responseBodyCut: answered.cut || undefined,
  });
}

/** The listener that feeds `journal` from a stream; `stateOf` is the service's live state. */
export function journalFeed(journal: Journal, stateOf: () => MockState): StreamListener {
  return (record) => {
    if (record.type === 'answered') recordRequest(journal, stateOf(), record.exchange);
    else if (record.type === 'transition')
      journal.record<JournalTransition>(record.state, { type: 'transition', ...record.transition });
  };
}
