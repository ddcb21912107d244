/**
 * Webhook scenarios (spec 3.4, 6): each points the account's webhook URL at the run's receiver (its own on
 * 127.0.0.1, or the one `--receiver-url` names), makes the target emit events, and records what arrived: the headers, the signature under the
 * package's own verifier, the envelope's shape, the events' order and the delivery and retry schedule, on the
 * target's clock. The URL is set in the service's dashboard and time moves on the service's clock, so they all
 * need the mock's helpers: against a sandbox they are skipped with that reason.
 */
import { WEBHOOK_EVENT_TYPES } from '../../../src/webhooks/index.js';
import type { MockHelperCalls } from '../../connect.js';
import type { Duration } from '../../engine/duration.js';
import { stringField } from '../../state/records.js';
import type { Scenario, ScenarioTarget } from '../types.js';
import { matchDeliveries, recordDeliveries, recordHeaders } from './deliveries.js';
import { declaration, order } from './support.js';
import type { ConformanceReceiver, ReceivedDelivery } from './webhook-receiver.js';

/** Completes "… needs the mock's test helpers (/__mock), which this target has not" in the skip reason. */
const NEEDS = 'pointing the webhook URL at a local receiver and moving the clock';

/**
 * Points the account at a fresh receiver for `run`, then puts the account's own URL back (or none, as it was),
 * so a later run against the same target meets the account as this one did.
 */
async function withReceiver(
  t: ScenarioTarget,
  run: (helpers: MockHelperCalls, receiver: ConformanceReceiver) => Promise<void>,
): Promise<void> {
  const helpers = t.needHelpers(NEEDS);
  const account = await helpers.accounts.get();
  const receiver = await t.openReceiver(account.webhookSecret);
  await helpers.accounts.update({ webhookUrl: receiver.url });
  try {
    await run(helpers, receiver);
  } finally {
    await helpers.accounts.update({ webhookUrl: account.webhookUrl ?? null });
    await receiver.close();
  }
}

/**
 * Runs the clock to each pending delivery of `eventId` in turn and lets it be answered, so every attempt is
 * made at its own moment on the target's clock (a test never sleeps for real).
 */
async function deliverAll(helpers: MockHelperCalls, eventId: string): Promise<void> {
  // Five automatic attempts and a manual one at most; the bound only stops a target that never stops.
  for (let step = 0; step < 10; step++) {
    await helpers.webhooks.settle();
    const next = (await helpers.clock.pending()).find(
      (timer) => timer.kind === 'webhook.deliver' && stringField(timer.payload, 'eventId') === eventId,
    );
    if (!next) return;
    const wait = next.at - Date.parse(await helpers.clock.now());
    await (wait > 0 ? helpers.clock.advance(wait) : helpers.clock.runDue());
  }
}

/** Moves the clock `within` forward, every delivery in flight before and after it answered. */
async function settleFor(helpers: MockHelperCalls, within: Duration): Promise<void> {
  await helpers.webhooks.settle();
  await helpers.clock.advance(within);
  await helpers.webhooks.settle();
}

/**
 * The first delivery of a `type` event about `userId`, recorded as a step: a target that sends none differs
 * there (and the scenario stops), rather than being skipped.
 */
function firstDeliveryAbout(
  t: ScenarioTarget,
  receiver: ConformanceReceiver,
  type: string,
  userId: string,
): ReceivedDelivery | undefined {
  const found = receiver.received.find(
    (d) => d.envelope?.event === type && stringField(d.envelope.data, 'userId') === userId,
  );
  t.step(`${type} delivery about the new user`, found ? 'received' : 'not received');
  return found;
}

const delivery: Scenario = {
  id: 'webhooks.delivery',
  title: 'An event arrives signed, with its headers and the envelope',
  spec: '6.1, 6.3',
  tier: 'mock-helpers',
  run: (t) =>
    withReceiver(t, async (helpers, receiver) => {
      const { userId } = await t.client.users.create({ mobile: t.newMobile(), name: 'Asha Rao' });
      await settleFor(helpers, '1s');
      const first = firstDeliveryAbout(t, receiver, 'user.created', userId);
      if (!first) return;
      recordHeaders(t, first);
      t.step('user.created delivery: signature under verifyWebhook, on arrival', first.verdict);
      t.step('user.created delivery: envelope', first.envelope, { compare: 'delivery' });
    }),
};

const eventOrder: Scenario = {
  id: 'webhooks.order',
  title: "A transaction's events come in the order it moves, each delivered signed",
  spec: '3.1, 6.2',
  tier: 'mock-helpers',
  run: (t) =>
    withReceiver(t, async (helpers, receiver) => {
      const { userId } = await helpers.users.seedVerified({ mobile: t.newMobile() });
      const { transactionId } = await t.client.transactions.create({ ...order(t, userId), asset: 'USDT' });
      const confirmIn = await helpers.transactions.simulateDeposit({ transactionId });
      await settleFor(helpers, confirmIn);
      await settleFor(helpers, '1h');
      // The order the target emitted them in (deliveries run side by side, so arrival order is not a rule).
      const events = (await helpers.webhooks.events()).filter((e) => e.transactionId === transactionId);
      t.step(
        'events of one transaction, in the order emitted',
        events.map((e) => e.eventType),
      );
      const verdicts = events.map(
        (e) => receiver.received.find((d) => d.eventId === e.id)?.verdict ?? 'not received',
      );
      t.step('each of them at the receiver, under verifyWebhook', [...new Set(verdicts)]);
      // A type the contract does not list, standing in for it (renamed), is compared as it and named as such.
      const completed = matchDeliveries(
        receiver.received.filter((d) => stringField(d.envelope?.data, 'transactionId') === transactionId),
        ['transaction.payout_completed'],
      ).byType.get('transaction.payout_completed');
      t.step('transaction.payout_completed delivery: envelope', completed?.envelope, { compare: 'delivery' });
    }),
};

const retries: Scenario = {
  id: 'webhooks.retries',
  title:
    'A failed delivery is retried 1, 2, 4 and 8 s later, then the event is failed; a manual retry delivers it',
  spec: '3.4, 6.4',
  tier: 'mock-helpers',
  run: (t) =>
    withReceiver(t, async (helpers, receiver) => {
      receiver.answerWith(500);
      const { userId } = await t.client.users.create({ mobile: t.newMobile(), name: 'Ravi Kumar' });
      // The first attempt is due at once: made and answered, the clock not moved.
      await helpers.clock.runDue();
      await helpers.webhooks.settle();
      const eventId = firstDeliveryAbout(t, receiver, 'user.created', userId)?.eventId;
      if (eventId === undefined) return;
      await deliverAll(helpers, eventId);
      // Times as the target recorded them on its clock; the receiver shows each attempt really arrived.
      const times = (await helpers.webhooks.captured())
        .filter((d) => d.eventId === eventId)
        .map((d) => Date.parse(d.at));
      t.step(
        'seconds before each retry',
        times.slice(1).map((at, i) => (at - (times[i] ?? at)) / 1000),
      );
      t.step(
        'attempts that reached the receiver',
        receiver.received.filter((d) => d.eventId === eventId).length,
      );
      const failed = (await helpers.webhooks.events()).find((e) => e.id === eventId);
      t.step('after the attempts: status, attempts', [failed?.status, failed?.attempts]);

      receiver.answerWith(200);
      await t.client.webhooks.retry(eventId);
      await deliverAll(helpers, eventId);
      const retried = (await helpers.webhooks.events()).find((e) => e.id === eventId);
      t.step('after a manual retry answered 200: status, attempts', [retried?.status, retried?.attempts]);
    }),
};

/**
 * Records each of the ten event types' first delivery about `ids` (the users and transactions the scenario made),
 * checked against its payload in the contract: a type that never arrives is named, not skipped, and a type the
 * contract does not list is named as such.
 */
function recordEveryEvent(t: ScenarioTarget, received: readonly ReceivedDelivery[], ids: string[]): void {
  const ours = received.filter((d) =>
    ['userId', 'transactionId'].some((key) => ids.includes(stringField(d.envelope?.data, key) ?? '')),
  );
  recordDeliveries(t, matchDeliveries(ours, WEBHOOK_EVENT_TYPES), WEBHOOK_EVENT_TYPES);
}

/** The sandbox amounts that make a sweep fail and a payout fail (docs/sandbox-values.md). */
const SWEEP_FAILS = '77.70';
const PAYOUT_FAILS = '66.60';

const everyEvent: Scenario = {
  id: 'webhooks.every-event',
  title: 'Each of the ten event types arrives signed, its payload as the contract publishes it',
  spec: '3.1, 3.3, 6.1, 6.2',
  tier: 'mock-helpers',
  run: (t) =>
    withReceiver(t, async (helpers, receiver) => {
      // user.created, then user.kyc_updated as a PEP declaration rejects the KYC.
      const { userId: newUser } = await t.client.users.create({
        mobile: t.newMobile(),
        deviceId: t.name('device'),
      });
      await t.refused(t.client.kyc.declaration.submit(newUser, declaration(true, t.name('device'))));
      const { userId } = await helpers.users.seedVerified({ mobile: t.newMobile() });
      const ids = [newUser, userId];
      // One transaction whose sweep fails and payout completes, one whose payout fails (the sandbox amounts).
      for (const amount of [SWEEP_FAILS, PAYOUT_FAILS]) {
        const { transactionId } = await t.client.transactions.create(order(t, userId, amount));
        ids.push(transactionId);
        await settleFor(helpers, await helpers.transactions.simulateDeposit({ transactionId }));
        await settleFor(helpers, '1h');
      }
      recordEveryEvent(t, receiver.received, ids);
    }),
};

/** The webhook scenarios, in the order they run. */
export const WEBHOOK_SCENARIOS: readonly Scenario[] = [delivery, eventOrder, everyEvent, retries];
