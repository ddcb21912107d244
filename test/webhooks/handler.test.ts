// createWebhookHandler's semantics, one by one, on the in-memory store (the stores' own contract is
// stores.test.ts; many replicas on PostgreSQL and Redis is test/slow/webhook-replicas.test.ts).
import { signWebhook } from 'inr-payouts/webhooks';
import {
  createWebhookHandler,
  memoryWebhookStore,
  type WebhookHandlerOptions,
} from 'inr-payouts/webhooks/handler';
import { describe, expect, test } from 'vitest';

const secret = 'whsec_handler_test';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function delivery(overrides: Record<string, unknown> = {}, key = secret): Request {
  const { body, header } = signWebhook({
    payload: {
      id: 'evt_1',
      event: 'transaction.payout_completed',
      timestamp: new Date().toISOString(),
      partnerId: 'p_1',
      data: { transactionId: 'txn_1', utr: 'UTR1', amount: 8450 },
      ...overrides,
    },
    secret: key,
  });
  return new Request('https://partner.example/webhooks', {
    method: 'POST',
    body,
    headers: { 'x-service-signature': header, 'content-type': 'application/json' },
  });
}

function handlerWith(options: Partial<WebhookHandlerOptions>) {
  const errors: unknown[] = [];
  const handle = createWebhookHandler({
    secret,
    on: {},
    onError: (error) => errors.push(error),
    ...options,
  });
  return { handle, errors };
}

describe('one delivery', () => {
  test('runs the typed function, then answers 200; the same event again answers 200 at once and runs nothing', async () => {
    const utrs: string[] = [];
    const { handle } = handlerWith({
      on: { 'transaction.payout_completed': async (event) => void utrs.push(event.data.utr) },
    });
    const first = await handle(delivery());
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ received: true });
    const again = await handle(delivery());
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual({ received: true, duplicate: true });
    expect(utrs).toEqual(['UTR1']);
  });

  test('a function that throws: 500, the claim released, and the retry runs it again', async () => {
    let calls = 0;
    const { handle, errors } = handlerWith({
      on: {
        'transaction.payout_completed': async () => {
          calls++;
          if (calls === 1) throw new Error('ledger down');
        },
      },
    });
    const failed = await handle(delivery());
    expect(failed.status).toBe(500);
    expect(await failed.json()).toEqual({ error: 'handler_failed' });
    expect(errors).toEqual([new Error('ledger down')]);
    expect((await handle(delivery())).status).toBe(200);
    expect(calls).toBe(2);
  });

  test('a bad signature answers 401 (spec 6.3.5) and runs nothing', async () => {
    let calls = 0;
    const { handle, errors } = handlerWith({ on: { 'transaction.payout_completed': () => void calls++ } });
    const response = await handle(delivery({}, 'whsec_someone_else'));
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ error: 'no_matching_signature' });
    expect(calls).toBe(0);
    expect(errors).toHaveLength(1);
  });

  test('only POST is handled', async () => {
    const { handle } = handlerWith({});
    const response = await handle(new Request('https://partner.example/webhooks'));
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
  });

  test('a body over maxBodyBytes answers 413 unread', async () => {
    const { handle } = handlerWith({ maxBodyBytes: 64 });
    expect((await handle(delivery())).status).toBe(413);
  });

  test('an event type with no function is acknowledged; an unknown type goes to onUnknown, once', async () => {
    const unknown: string[] = [];
    const { handle } = handlerWith({ onUnknown: async (event) => void unknown.push(event.event) });
    const ignored = await handle(delivery({ id: 'evt_user', event: 'user.created' }));
    expect(ignored.status).toBe(200);
    expect(await ignored.json()).toEqual({ received: true, ignored: true });
    for (let i = 0; i < 2; i++) {
      expect((await handle(delivery({ id: 'evt_new', event: 'account.renamed' }))).status).toBe(200);
    }
    expect(unknown).toEqual(['account.renamed']);
  });

  test('a store that fails answers 503, so the service retries, and runs nothing', async () => {
    let calls = 0;
    const store = { ...memoryWebhookStore(), claim: () => Promise.reject(new Error('connection refused')) };
    const { handle, errors } = handlerWith({
      store,
      on: { 'transaction.payout_completed': () => void calls++ },
    });
    const response = await handle(delivery());
    expect(response.status).toBe(503);
    expect(calls).toBe(0);
    expect(errors).toEqual([new Error('connection refused')]);
  });
});

describe('two deliveries of one event at once', () => {
  test('the second answers 409 with Retry-After while the first runs, and the function runs once', async () => {
    let calls = 0;
    let finish = () => {};
    const running = new Promise<void>((resolve) => {
      finish = resolve;
    });
    const store = memoryWebhookStore();
    const replicaA = handlerWith({
      store,
      on: {
        'transaction.payout_completed': async () => {
          calls++;
          await running;
        },
      },
    }).handle;
    const replicaB = handlerWith({
      store,
      on: { 'transaction.payout_completed': () => void calls++ },
    }).handle;
    const first = replicaA(delivery());
    await sleep(20);
    const second = await replicaB(delivery());
    expect(second.status).toBe(409);
    expect(await second.json()).toEqual({ error: 'in_progress' });
    expect(Number(second.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    finish();
    expect((await first).status).toBe(200);
    // The service's next retry of the second delivery: done, 200.
    expect((await replicaB(delivery())).status).toBe(200);
    expect(calls).toBe(1);
  });

  test('a function slower than the lease keeps its claim (renewed), and the other replica never runs it', async () => {
    let calls = 0;
    const store = memoryWebhookStore();
    const options = {
      store,
      leaseMs: 150,
      on: {
        'transaction.payout_completed': async (_event: unknown, { signal }: { signal: AbortSignal }) => {
          calls++;
          await sleep(600); // four leases
          expect(signal.aborted).toBe(false);
        },
      },
    };
    const slow = handlerWith(options).handle(delivery());
    for (let i = 0; i < 4; i++) {
      await sleep(120);
      expect((await handlerWith(options).handle(delivery())).status).toBe(409);
    }
    expect((await slow).status).toBe(200);
    expect(calls).toBe(1);
  });

  test('a replica that died mid-function stops renewing: its lease expires and a retry runs the event', async () => {
    const store = memoryWebhookStore();
    // What a crashed replica leaves: a claim nobody renews.
    await store.claim('evt_1', 'crashed-replica', 150);
    let calls = 0;
    const { handle } = handlerWith({ store, on: { 'transaction.payout_completed': () => void calls++ } });
    expect((await handle(delivery())).status).toBe(409);
    await sleep(250);
    expect((await handle(delivery())).status).toBe(200);
    expect(calls).toBe(1);
  });

  test('a claim that cannot be renewed is lost: the signal aborts, the next replica takes over, the loser answers 409', async () => {
    const store = memoryWebhookStore();
    // The store cannot be reached for renewals from this replica.
    const unreachable = { ...store, renew: () => Promise.reject(new Error('timeout')) };
    let aborted: unknown;
    let calls = 0;
    const { handle, errors } = handlerWith({
      store: unreachable,
      leaseMs: 150,
      on: {
        'transaction.payout_completed': async (_event, { signal }) => {
          calls++;
          await sleep(400);
          aborted = signal.reason;
        },
      },
    });
    const loser = handle(delivery());
    await sleep(250); // the lease has run out unrenewed
    const other = handlerWith({ store, on: { 'transaction.payout_completed': () => void calls++ } });
    expect((await other.handle(delivery())).status).toBe(200);
    const response = await loser;
    expect(String(aborted)).toMatch(/claim on webhook event evt_1 was lost/);
    expect(response.status).toBe(409);
    expect(await response.json()).toEqual({ error: 'claim_lost' });
    expect(String(errors[0])).toMatch(/Lost the claim on evt_1/);
    expect(calls).toBe(2); // what leaseMs bounds: a function must stop when its signal aborts
  });
});
