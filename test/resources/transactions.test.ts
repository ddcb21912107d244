import { HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import {
  APIUserAbortError,
  ConflictError,
  PollTimeoutError,
  TransactionStatusError,
  UnprocessableEntityError,
  ValidationError,
} from '../../src/index.js';
import { completedPayout, created, createQuote, transaction } from '../support/fixtures.js';
import { fail, fast, ok, only, requests, route, useClient } from '../support/msw.js';

const client = useClient();
const params = {
  userId: 'usr_1',
  amount: '100.00',
  asset: 'USDC',
  network: 'polygon',
  partnerReference: 'order-42',
  metadata: { orderId: 'ord_9' },
} as const;

describe('transactions.create', () => {
  it('POSTs the body with an Idempotency-Key and reads the 201 answer', async () => {
    const seen = route('post', '/v2/transactions', ok(created, {}, 201));
    const { data, response } = await client.transactions.create(params).withResponse();
    const request = only(seen, true);
    expect(request).toMatchObject({ method: 'POST', path: '/v2/transactions', query: {}, body: params });
    expect(response.status).toBe(201);
    expect(data).toEqual(created);
    expect(data.quote.feeInr).toBe('83.25');
  });

  it('uses the caller’s Idempotency-Key and shows an idempotent replay', async () => {
    const seen = route(
      'post',
      '/v2/transactions',
      HttpResponse.json(
        { success: true, data: created },
        { status: 200, headers: { 'Idempotent-Replayed': 'true' } },
      ),
    );
    const { response } = await client.transactions
      .create(params, { idempotencyKey: '21af6b8b-5e22-4483-9679-bbdbe0ab03a6' })
      .withResponse();
    expect(seen[0]?.headers.get('idempotency-key')).toBe('21af6b8b-5e22-4483-9679-bbdbe0ab03a6');
    expect(response.idempotentReplayed).toBe(true);
  });

  it('reads the spec errors (PENDING_TRANSACTION_EXISTS, KYC_INCOMPLETE) into typed errors', async () => {
    route(
      'post',
      '/v2/transactions',
      fail(409, {
        error: 'Conflict',
        message: 'User has an active transaction',
        code: 'PENDING_TRANSACTION_EXISTS',
      }),
      fail(422, { error: 'Unprocessable', message: 'User has not completed KYC', code: 'KYC_INCOMPLETE' }),
    );
    await expect(client.transactions.create(params)).rejects.toMatchObject({
      status: 409,
      code: 'PENDING_TRANSACTION_EXISTS',
    });
    await expect(client.transactions.create(params)).rejects.toBeInstanceOf(UnprocessableEntityError);
  });
});

describe('transactions.createPrefunded', () => {
  it('POSTs /v2/transactions/prefunded and reads the deposit address, quote and expiry', async () => {
    const answer = { ...created, status: undefined, expiresAt: '2024-01-16T10:30:00Z' };
    const seen = route('post', '/v2/transactions/prefunded', ok(answer, {}, 201));
    const result = await client.transactions.createPrefunded(params);
    expect(only(seen, true)).toMatchObject({
      method: 'POST',
      path: '/v2/transactions/prefunded',
      body: params,
    });
    expect(result).toMatchObject({
      transactionId: 'txn_1',
      depositAddress: created.depositAddress,
      quote: createQuote,
      expiresAt: '2024-01-16T10:30:00Z',
    });
  });

  it('reads PREFUNDED_NOT_ALLOWED and CREDIT_LIMIT_EXCEEDED', async () => {
    route(
      'post',
      '/v2/transactions/prefunded',
      fail(403, { error: 'Forbidden', message: 'Prefunded not enabled', code: 'PREFUNDED_NOT_ALLOWED' }),
      fail(422, {
        error: 'Unprocessable',
        message: 'Amount above available credit',
        code: 'CREDIT_LIMIT_EXCEEDED',
      }),
    );
    await expect(client.transactions.createPrefunded(params)).rejects.toMatchObject({
      status: 403,
      code: 'PREFUNDED_NOT_ALLOWED',
    });
    await expect(client.transactions.createPrefunded(params)).rejects.toMatchObject({
      status: 422,
      code: 'CREDIT_LIMIT_EXCEEDED',
    });
  });
});

describe('transactions.retrieve', () => {
  it('GETs by transaction ID and reads the four objects with the rate attribution', async () => {
    const body = transaction('completed', completedPayout);
    const seen = route('get', '/v2/transactions/:id', ok(body));
    const result = await client.transactions.retrieve('txn_1');
    expect(only(seen, false)).toMatchObject({
      method: 'GET',
      path: '/v2/transactions/txn_1',
      body: undefined,
    });
    expect(result).toEqual(body);
    expect(result.payout?.allocations).toHaveLength(2);
  });

  it('GETs by partnerReference, encoded in the path', async () => {
    const seen = route('get', '/v2/transactions/:id', ok(transaction('created')));
    const result = await client.transactions.retrieve('order 42/a');
    expect(seen[0]?.path).toBe('/v2/transactions/order%2042%2Fa');
    expect(result.payout).toBeUndefined();
  });

  it('rejects an empty ID without sending', async () => {
    await expect(client.transactions.retrieve('')).rejects.toBeInstanceOf(ValidationError);
    expect(requests).toHaveLength(0);
  });

  it('reads an unknown status as a string (open enum)', async () => {
    route('get', '/v2/transactions/:id', ok(transaction('on_hold')));
    expect((await client.transactions.retrieve('txn_1')).transaction.status).toBe('on_hold');
  });
});

describe('transactions.createWithRecovery', () => {
  it('returns the create when it answers', async () => {
    const seen = route('post', '/v2/transactions', ok(created, {}, 201));
    const result = await client.transactions.createWithRecovery(params);
    expect(result).toEqual({ recovered: false, transactionId: 'txn_1', created });
    expect(seen).toHaveLength(1);
  });

  it('after a timeout, finds the transaction by partnerReference and sends nothing again', async () => {
    const creates = route('post', '/v2/transactions', async () => {
      await new Promise((r) => setTimeout(r, 300));
      return ok(created, {}, 201);
    });
    const lookups = route('get', '/v2/transactions/:id', ok(transaction('created')));
    const result = await client.transactions.createWithRecovery(params, { timeout: 50 });
    expect(creates).toHaveLength(1);
    expect(lookups.map((l) => l.path)).toEqual(['/v2/transactions/order-42']);
    expect(result).toMatchObject({ recovered: true, transactionId: 'txn_1' });
  });

  it('after a dropped connection with no transaction, resends with the same Idempotency-Key', async () => {
    const creates = route('post', '/v2/transactions', () => HttpResponse.error(), ok(created, {}, 201));
    const lookups = route(
      'get',
      '/v2/transactions/:id',
      fail(404, { error: 'Not Found', message: 'No such transaction', code: 'TRANSACTION_NOT_FOUND' }),
    );
    const result = await client.transactions.createWithRecovery(params);
    expect(result).toMatchObject({ recovered: false, transactionId: 'txn_1' });
    expect(lookups).toHaveLength(1);
    expect(creates).toHaveLength(2);
    expect(creates[0]?.headers.get('idempotency-key')).toBe(creates[1]?.headers.get('idempotency-key'));
  });

  it('after a 5xx finds the transaction the service did create', async () => {
    route(
      'post',
      '/v2/transactions',
      fail(503, { error: 'Service Unavailable', message: 'down', code: 'SERVICE_UNAVAILABLE' }),
    );
    route('get', '/v2/transactions/:id', ok(transaction('created')));
    expect(await client.transactions.createWithRecovery(params)).toMatchObject({ recovered: true });
  });

  it('can recover a prefunded create', async () => {
    const creates = route('post', '/v2/transactions/prefunded', () => HttpResponse.error());
    route('get', '/v2/transactions/:id', ok(transaction('payout_processing')));
    const result = await client.transactions.createWithRecovery(params, { prefunded: true });
    expect(creates).toHaveLength(1);
    expect(result).toMatchObject({
      recovered: true,
      transaction: { transaction: { status: 'payout_processing' } },
    });
  });

  it('does not recover from a definite answer (409)', async () => {
    route(
      'post',
      '/v2/transactions',
      fail(409, { error: 'Conflict', message: 'active', code: 'PENDING_TRANSACTION_EXISTS' }),
    );
    await expect(client.transactions.createWithRecovery(params)).rejects.toBeInstanceOf(ConflictError);
    expect(requests).toHaveLength(1);
  });

  it('gives up after maxAttempts creates, each after a lookup found nothing', async () => {
    const creates = route('post', '/v2/transactions', () => HttpResponse.error());
    route(
      'get',
      '/v2/transactions/:id',
      fail(404, { error: 'Not Found', message: 'none', code: 'TRANSACTION_NOT_FOUND' }),
    );
    await expect(client.transactions.createWithRecovery(params, { maxAttempts: 2 })).rejects.toMatchObject({
      name: 'APIConnectionError',
    });
    expect(creates).toHaveLength(2);
  });

  it('requires a partnerReference and sends nothing without one', async () => {
    const { partnerReference: _, ...withoutReference } = params;
    await expect(client.transactions.createWithRecovery(withoutReference)).rejects.toBeInstanceOf(
      ValidationError,
    );
    expect(requests).toHaveLength(0);
  });
});

describe('transactions.waitForStatus', () => {
  it('polls until a terminal status and returns the transaction', async () => {
    const seen = route(
      'get',
      '/v2/transactions/:id',
      ok(transaction('deposit_detected')),
      ok(transaction('payout_processing')),
      ok(transaction('completed', completedPayout)),
    );
    const result = await client.transactions.waitForStatus('txn_1', fast);
    expect(result.transaction.status).toBe('completed');
    expect(seen).toHaveLength(3);
  });

  it('stops at the statuses asked for', async () => {
    route('get', '/v2/transactions/:id', ok(transaction('created')), ok(transaction('payout_completed')));
    const result = await client.transactions.waitForStatus('txn_1', {
      ...fast,
      statuses: ['payout_completed'],
    });
    expect(result.transaction.status).toBe('payout_completed');
  });

  it('throws TransactionStatusError when it ends elsewhere', async () => {
    route('get', '/v2/transactions/:id', ok(transaction('payout_processing')), ok(transaction('failed')));
    const error = await client.transactions
      .waitForStatus('txn_1', { ...fast, statuses: ['completed'] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransactionStatusError);
    expect(error).toMatchObject({ status: 'failed' });
  });

  it('throws PollTimeoutError at the deadline, with the last read', async () => {
    route('get', '/v2/transactions/:id', ok(transaction('deposit_pending')));
    const error = await client.transactions
      .waitForStatus('txn_1', { interval: 50, deadline: 200 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PollTimeoutError);
    expect((error as PollTimeoutError).lastValue).toMatchObject({
      transaction: { status: 'deposit_pending' },
    });
  });

  it('stops at once on abort', async () => {
    route('get', '/v2/transactions/:id', ok(transaction('deposit_pending')));
    const controller = new AbortController();
    const waiting = client.transactions.waitForStatus('txn_1', {
      interval: 10_000,
      deadline: 60_000,
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(), 100);
    await expect(waiting).rejects.toBeInstanceOf(APIUserAbortError);
  });
});

describe('transactions.waitForAttribution', () => {
  it('polls past the payout without attribution until rate, usdtEquivalent and allocations appear', async () => {
    const { rate: _r, usdtEquivalent: _u, allocations: _a, ...bare } = completedPayout;
    const seen = route(
      'get',
      '/v2/transactions/:id',
      ok(transaction('payout_processing', { rail: 'imps', status: 'pending' })),
      ok(transaction('completed', bare)),
      ok(transaction('completed', completedPayout)),
    );
    const result = await client.transactions.waitForAttribution('txn_1', fast);
    expect(seen).toHaveLength(3);
    expect(result.payout.rate).toBe('83.50');
    expect(result.payout.allocations.map((a) => a.dealId)).toEqual(['deal_1', 'deal_2']);
  });

  it('throws TransactionStatusError when the transaction fails', async () => {
    route('get', '/v2/transactions/:id', ok(transaction('failed')));
    await expect(client.transactions.waitForAttribution('txn_1', fast)).rejects.toBeInstanceOf(
      TransactionStatusError,
    );
  });

  it('throws PollTimeoutError when attribution never comes (a flow not funded from a pool)', async () => {
    route('get', '/v2/transactions/:id', ok(transaction('completed', { rail: 'imps', status: 'completed' })));
    await expect(
      client.transactions.waitForAttribution('txn_1', { interval: 50, deadline: 200 }),
    ).rejects.toBeInstanceOf(PollTimeoutError);
  });

  it('stops on abort', async () => {
    route('get', '/v2/transactions/:id', ok(transaction('payout_processing')));
    const controller = new AbortController();
    controller.abort();
    await expect(
      client.transactions.waitForAttribution('txn_1', { signal: controller.signal }),
    ).rejects.toBeInstanceOf(APIUserAbortError);
    expect(requests).toHaveLength(0);
  });
});
