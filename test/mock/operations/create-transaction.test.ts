import { describe, expect, it } from 'vitest';
import { APIError } from '../../../src/index.js';
import { ErrorBodyA } from '../../../src/schemas/common.js';
import { Transaction } from '../../../src/schemas/transactions.js';
import { moneyMock, verifiedUser } from '../../support/money-mock.js';

const mock = moneyMock();
const BODY = { amount: '100', asset: 'USDC', network: 'ethereum' } as const;

async function apiError(promise: Promise<unknown>): Promise<APIError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof APIError)) throw new Error(`expected an APIError, got ${String(error)}`);
  return error;
}

describe('7.3: standard creation errors', () => {
  it('7.3 USER_NOT_FOUND (404) for an unknown user', async () => {
    const { client } = mock.use();
    const error = await apiError(client.transactions.create({ userId: 'usr_nobody', ...BODY }));
    expect([error.status, error.code]).toEqual([404, 'USER_NOT_FOUND']);
  });

  it('7.3 KYC_INCOMPLETE (422) for a user whose KYC is not verified', async () => {
    const { service, client } = mock.use();
    const { userId } = service.helpers.users.seedVerified({ mobile: '9876543210', kycStatus: 'in_progress' });
    const error = await apiError(client.transactions.create({ userId, ...BODY }));
    expect([error.status, error.code]).toEqual([422, 'KYC_INCOMPLETE']);
    expect(error.message).toMatch(/has not completed KYC/);
  });

  it('7.3 NO_BANK_ACCOUNT (422) for a verified user without a verified bank account', async () => {
    const { service, client } = mock.use();
    const { userId } = service.helpers.users.seedVerified({ mobile: '9876543210', bank: false });
    const error = await apiError(client.transactions.create({ userId, ...BODY }));
    expect([error.status, error.code]).toEqual([422, 'NO_BANK_ACCOUNT']);
  });

  it('7.3 PENDING_TRANSACTION_EXISTS (409) while the user has an active transaction, and not after it ends', async () => {
    const { service, client } = mock.use();
    const userId = verifiedUser(service);
    await client.transactions.create({ userId, ...BODY });
    const error = await apiError(client.transactions.create({ userId, ...BODY }));
    expect([error.status, error.code]).toEqual([409, 'PENDING_TRANSACTION_EXISTS']);
    await service.clock.advance('30m');
    await expect(client.transactions.create({ userId, ...BODY })).resolves.toMatchObject({
      status: 'created',
    });
  });

  it('7.3 AMOUNT_TOO_LOW under 10 and AMOUNT_TOO_HIGH over 50,000 (400); 10 and 50,000 pass', async () => {
    const { service, call } = mock.use();
    const userId = verifiedUser(service);
    const low = await call('POST', '/v2/transactions', { body: { userId, ...BODY, amount: '9.99' } });
    expect(low.status).toBe(400);
    expect(ErrorBodyA.parse(low.body)).toMatchObject({ code: 'AMOUNT_TOO_LOW' });
    const high = await call('POST', '/v2/transactions', { body: { userId, ...BODY, amount: '50000.01' } });
    expect(high.status).toBe(400);
    expect(ErrorBodyA.parse(high.body)).toMatchObject({ code: 'AMOUNT_TOO_HIGH' });
    const other = verifiedUser(service, '9876543211');
    expect((await call('POST', '/v2/transactions', { body: { userId, ...BODY, amount: '10' } })).status).toBe(
      201,
    );
    const top = await call('POST', '/v2/transactions', { body: { userId: other, ...BODY, amount: '50000' } });
    expect(top.status).toBe(201);
  });

  it('4.2: an unknown asset or network answers 400 VALIDATION_ERROR naming the allowed values', async () => {
    const { service, call } = mock.use();
    const userId = verifiedUser(service);
    const answer = await call('POST', '/v2/transactions', {
      body: { userId, amount: '100', asset: 'DAI', network: 'tron' },
    });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ code: 'VALIDATION_ERROR' });
    expect(String(answer.body.message)).toMatch(/asset must be one of USDC, USDT/);
  });

  it('2.2: the developer fee applies to new transactions only', async () => {
    const { service, client } = mock.use();
    const first = await client.transactions.create({ userId: verifiedUser(service), ...BODY });
    await client.account.updateDeveloperFee({ enabled: true, percent: 0.015 });
    const second = await client.transactions.create({ userId: verifiedUser(service, '9876543211'), ...BODY });
    expect(first.quote).toMatchObject({ feePercent: 0, feeInr: '0.00', netInr: '8325.00' });
    expect(second.quote).toMatchObject({
      feePercent: 0.015,
      grossInr: '8325.00',
      feeInr: '124.88',
      netInr: '8200.12',
    });
    expect((await client.transactions.retrieve(first.transactionId)).quote.netInr).toBe('8325.00');
  });

  it('4.2: the deposit address is the same for a user on every create (and per address family)', async () => {
    const { service, client } = mock.use();
    const userId = verifiedUser(service);
    const a = await client.transactions.create({ userId, ...BODY });
    await service.clock.advance('30m');
    const b = await client.transactions.create({ userId, ...BODY, network: 'base' });
    await service.clock.advance('30m');
    const c = await client.transactions.create({ userId, ...BODY, network: 'solana' });
    expect(b.depositAddress).toBe(a.depositAddress);
    expect(c.depositAddress).toMatch(/^[1-9A-HJ-NP-Za-km-z]{44}$/);
  });
});

describe('3.1, 7.3: quote expiry and lookups', () => {
  it('7.3 QUOTE_EXPIRED: an unpaid quote is cancelled when it expires after 30 minutes', async () => {
    const { service, client } = mock.use();
    const created = await client.transactions.create({ userId: verifiedUser(service), ...BODY });
    await service.clock.advance('29m59s');
    expect((await client.transactions.retrieve(created.transactionId)).transaction.status).toBe('created');
    await service.clock.advance('1s');
    const read = await client.transactions.retrieve(created.transactionId);
    expect(read.transaction).toMatchObject({ status: 'cancelled', failureCode: 'QUOTE_EXPIRED' });
    expect(() =>
      service.helpers.transactions.simulateDeposit({ transactionId: created.transactionId }),
    ).toThrow(/it is cancelled, and this is allowed only from created/);
  });

  /** A fresh mock with one transaction, partner reference `ref-1`. */
  async function withRef1() {
    const used = mock.use();
    const created = await used.client.transactions.create({
      userId: verifiedUser(used.service),
      ...BODY,
      partnerReference: 'ref-1',
    });
    return { ...used, created };
  }

  it('4.2: GET by ID or partnerReference; an unknown one answers 404 TRANSACTION_NOT_FOUND', async () => {
    const { client, call, created } = await withRef1();
    const byRef = await client.transactions.retrieve('ref-1');
    expect(byRef.transaction.id).toBe(created.transactionId);
    const raw = await call('GET', `/v2/transactions/${created.transactionId}`);
    expect(Transaction.parse(raw.body.data)).toEqual(byRef);
    const missing = await apiError(client.transactions.retrieve('nope'));
    expect([missing.status, missing.code]).toEqual([404, 'TRANSACTION_NOT_FOUND']);
  });

  it('4.2: another account cannot read the transaction', async () => {
    const { service, call, created } = await withRef1();
    const other = service.helpers.accounts.create({ name: 'Other' });
    expect(
      (await call('GET', `/v2/transactions/${created.transactionId}`, { key: other.keys.sandbox })).status,
    ).toBe(404);
    expect((await call('GET', '/v2/transactions/ref-1', { key: other.keys.sandbox })).status).toBe(404);
  });
});

describe('3.1 (assumed): short and over payments, payout failures', () => {
  async function confirmed(amount: string, deposit: string) {
    const used = mock.use();
    const created = await used.client.transactions.create({
      userId: verifiedUser(used.service),
      ...BODY,
      amount,
    });
    const ms = used.service.helpers.transactions.simulateDeposit({
      transactionId: created.transactionId,
      amount: deposit,
    });
    await used.service.clock.advance(ms);
    return { ...used, id: created.transactionId };
  }

  it('a short payment pays out what was received at the quoted rate', async () => {
    const { client, id } = await confirmed('100', '60');
    const read = await client.transactions.retrieve(id);
    expect(read.deposit).toMatchObject({
      expectedAmount: '100',
      receivedAmount: '60',
      status: 'confirmed',
      confirmations: 12,
    });
    expect(read.payout).toMatchObject({ amountInr: '4995.00', status: 'processing' });
  });

  it('an over payment pays out the expected amount only', async () => {
    const { client, id } = await confirmed('100', '150');
    const read = await client.transactions.retrieve(id);
    expect(read.deposit.receivedAmount).toBe('150');
    expect(read.payout?.amountInr).toBe('8325.00');
  });

  it('7.3: a short payment below 10 USD fails the payout with AMOUNT_TOO_LOW', async () => {
    const { client, id } = await confirmed('100', '5');
    const read = await client.transactions.retrieve(id);
    expect(read.transaction).toMatchObject({ status: 'failed', failureCode: 'AMOUNT_TOO_LOW' });
  });

  it('7.3 PAYOUT_FAILED: the sandbox amount 66.60 has its payout rejected, with transaction.payout_failed', async () => {
    const { service, client, id } = await confirmed('66.60', '66.60');
    await service.clock.advance('10s');
    const read = await client.transactions.retrieve(id);
    expect(read.transaction).toMatchObject({ status: 'failed', failureCode: 'PAYOUT_FAILED' });
    expect(read.payout).toMatchObject({ status: 'failed', failureCode: 'PAYOUT_FAILED' });
    const [event] = service.helpers.webhooks.events({ type: 'transaction.payout_failed' });
    expect(event?.envelope.data).toMatchObject({
      transactionId: id,
      status: 'failed',
      code: 'PAYOUT_FAILED',
      amountInr: '5544.45',
    });
  });

  it('7.3 KYC_NOT_VERIFIED: KYC no longer verified at payout time fails the payout', async () => {
    const used = mock.use();
    const userId = verifiedUser(used.service);
    const created = await used.client.transactions.create({ userId, ...BODY });
    const ms = used.service.helpers.transactions.simulateDeposit({ transactionId: created.transactionId });
    const record = used.service.state.kyc.byUserId[userId];
    if (!record) throw new Error('no KYC record');
    (record as { status: string }).status = 'rejected';
    await used.service.clock.advance(ms);
    const read = await used.client.transactions.retrieve(created.transactionId);
    expect(read.transaction).toMatchObject({ status: 'failed', failureCode: 'KYC_NOT_VERIFIED' });
  });

  it('helpers: completePayout and failPayout settle a processing payout now; elsewhere they are refused', async () => {
    const { service, client, id } = await confirmed('100', '100');
    expect(
      service.helpers.transactions.failPayout({ transactionId: id, code: 'BANK_ACCOUNT_INVALID' }).payout,
    ).toMatchObject({
      status: 'failed',
      failureCode: 'BANK_ACCOUNT_INVALID',
    });
    expect(() => service.helpers.transactions.completePayout({ transactionId: id })).toThrow(
      /allowed only from payout_processing/,
    );
    expect((await client.transactions.retrieve(id)).transaction.status).toBe('failed');
  });
});
