/**
 * The classes of contract drift a real sandbox shows that the contract-problems and guided tests plant, one at a
 * time, in front of the standalone server (each a {@link Plant} for the drifted sandbox), and the line the report
 * names each with.
 */
import type { ConformanceReport } from '../../../mock/conformance/types.js';
import { isPlainObject } from '../../../src/shared/plain-object.js';
import { type Plant, type ProxiedAnswer, type ProxiedDelivery, resignSkewed } from './drifted-sandbox.js';

/** Every difference of each scenario, as `scenario: text`, each scenario's distinct ones once. */
export const perScenario = (report: ConformanceReport) =>
  report.results.flatMap((r) => [...new Set(r.differences.map((d) => `${r.id}: ${d.text}`))]);

const TRANSACTION = /^\/v2\/transactions\/txn_[^/]+$/;

/** Rewrites the transaction in each successful `GET /v2/transactions/{id}` answer. */
function transactionRead(
  change: (data: Record<string, unknown>) => Record<string, unknown> | undefined,
): Plant {
  return {
    answer: (method: string, path: string, answer: ProxiedAnswer) => {
      const body = isPlainObject(answer.body) ? answer.body : undefined;
      if (method !== 'GET' || !TRANSACTION.test(path) || answer.status !== 200 || !isPlainObject(body?.data))
        return undefined;
      const data = change(body.data);
      return data && { ...answer, body: { ...body, data } };
    },
  };
}

const leg = (data: Record<string, unknown>, name: string) =>
  isPlainObject(data[name]) ? data[name] : undefined;

/** The classes, each a plant on the API's answers or on the deliveries. */
export const CLASSES = {
  /** The mock's own `transaction.updatedAt` left out (the default-profile server): no difference. */
  mockOnlyMissing: transactionRead((data) => {
    const transaction = leg(data, 'transaction');
    if (!transaction) return undefined;
    const { updatedAt: _mine, ...spec } = transaction;
    return { ...data, transaction: spec };
  }),
  /** `payout.rate`, a decimal string, sent as a number. */
  driftedType: transactionRead((data) => {
    const payout = leg(data, 'payout');
    if (typeof payout?.rate !== 'string') return undefined;
    return { ...data, payout: { ...payout, rate: Number(payout.rate) } };
  }),
  /** A status the contract does not list, before the deposit (`created` read as `deposit_awaited`). */
  unknownStatus: transactionRead((data) => {
    const transaction = leg(data, 'transaction');
    if (transaction?.status !== 'created') return undefined;
    return { ...data, transaction: { ...transaction, status: 'deposit_awaited' } };
  }),
  /** `payout.utr`, optional in the contract, left out once the payout completed. */
  omittedInState: transactionRead((data) => {
    const payout = leg(data, 'payout');
    if (payout?.status !== 'completed' || payout.utr === undefined) return undefined;
    const { utr: _utr, ...rest } = payout;
    return { ...data, payout: rest };
  }),
  /** The document-locker session's status a value the contract's union does not list. */
  nestedEnum: {
    answer: (method: string, path: string, answer: ProxiedAnswer) => {
      const body = isPlainObject(answer.body) ? answer.body : undefined;
      if (method !== 'GET' || !path.endsWith('/kyc/digilocker/status') || !isPlainObject(body?.data))
        return undefined;
      if (body.data.status !== 'PENDING') return undefined;
      return { ...answer, body: { ...body, data: { ...body.data, status: 'IN_REVIEW' } } };
    },
  },
  /** The KYC status record's document-locker block (spec 2.7) with a status the contract does not list. */
  nestedRecordEnum: {
    answer: (method: string, path: string, answer: ProxiedAnswer) => {
      const body = isPlainObject(answer.body) ? answer.body : undefined;
      const data = isPlainObject(body?.data) ? body.data : undefined;
      if (method !== 'GET' || !path.endsWith('/kyc/status') || !isPlainObject(data?.digilocker))
        return undefined;
      return {
        ...answer,
        body: { ...body, data: { ...data, digilocker: { ...data.digilocker, status: 'IN_REVIEW' } } },
      };
    },
  },
  /** `transaction.payout_completed` delivered as `transaction.payout_succeeded`. */
  renamedEventType: {
    delivery: (delivery: ProxiedDelivery, secret: string) => {
      const envelope = JSON.parse(delivery.body) as Record<string, unknown>;
      if (envelope.event !== 'transaction.payout_completed') return delivery;
      const body = JSON.stringify({ ...envelope, event: 'transaction.payout_succeeded' });
      return resignSkewed({ ...delivery, body }, secret, 0);
    },
  },
  /** Deliveries without the `X-Service-Event-Id` header. */
  missingEventId: {
    delivery: (delivery: ProxiedDelivery) => {
      const { 'x-service-event-id': _id, ...headers } = delivery.headers;
      return { ...delivery, headers };
    },
  },
} satisfies Record<string, Plant>;

/** What the report says of each class, as {@link perScenario} prints it after the scenario. */
export const RATE = 'GET /v2/transactions/:transactionId: `payout.rate`: mock string, sandbox number';
export const STATUS =
  'GET /v2/transactions/:transactionId: `transaction.status` value: mock one of "created", "deposit_pending", "deposit_detected", "deposit_confirmed", "payout_processing", "payout_completed", … (as the contract lists), sandbox "deposit_awaited"';
export const UTR =
  'GET /v2/transactions/:transactionId: `payout.utr` when `payout.status` is "completed": mock string, sandbox absent';
export const RENAMED =
  'transaction.payout_completed delivery: envelope: `event` value: mock one of the ten event types (as the contract lists), sandbox "transaction.payout_succeeded"';
export const EVENT_ID =
  "a delivery's headers: `X-Service-Event-Id` header: mock the envelope's id, sandbox absent";
