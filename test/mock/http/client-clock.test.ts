/**
 * The mock's virtual clock as a client clock, and `mock.createClient` wired to the mock.
 */
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createMockService } from '../../../mock/index.js';
import { mswHandlers } from '../../../mock/msw/index.js';

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

describe('mock.clientClock', () => {
  it('now is virtual time; sleep(ms) advances the virtual clock by ms and runs the timers that fall due', async () => {
    const mock = createMockService();
    const t0 = mock.clock.now();
    expect(mock.clientClock.now()).toBe(t0);
    mock.helpers.accounts.update({ webhookUrl: 'https://partner.test/hooks' });
    mock.helpers.webhooks.useFetch(async () => new Response(null, { status: 500 }));
    server.use(...mswHandlers(mock));
    await mock.createClient().users.create({ mobile: '9876543210' });
    await mock.clientClock.sleep(30_000);
    expect(mock.clock.now()).toBe(t0 + 30_000);
    expect(mock.clientClock.now()).toBe(t0 + 30_000);
    // The delivery's whole retry schedule ran inside the sleep.
    expect(mock.helpers.webhooks.events()[0]).toMatchObject({ status: 'failed', attempts: 5 });
  });

  it('an aborted signal rejects with its reason and does not move the clock', async () => {
    const mock = createMockService();
    const t0 = mock.clock.now();
    const reason = new Error('stop');
    await expect(mock.clientClock.sleep(1_000, AbortSignal.abort(reason))).rejects.toBe(reason);
    expect(mock.clock.now()).toBe(t0);
  });
});

describe('mock.createClient', () => {
  it("answers with the mock's base URL and default sandbox key; options override them", async () => {
    const mock = createMockService();
    server.use(...mswHandlers(mock));
    const client = mock.createClient();
    const user = await client.users.create({ mobile: '9876543210' });
    expect(mock.state.users.byId[user.userId]).toMatchObject({ mobile: '+919876543210' });
    const other = mock.helpers.accounts.create({ name: 'Second partner' });
    const second = mock.createClient({ apiKey: other.keys.sandbox });
    await second.users.create({ mobile: '9876543211' });
    expect(mock.helpers.webhooks.events().map((e) => e.accountId)).toEqual([mock.accountId, other.id]);
  });
});
