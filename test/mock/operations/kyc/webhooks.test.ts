import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockService } from '../../../../mock/index.js';
import { mswHandlers } from '../../../../mock/msw/index.js';
import { PayoutClient } from '../../../../src/index.js';
import { KycRefresh } from '../../../../src/schemas/kyc/status.js';
import { verifyWebhook } from '../../../../src/webhooks/index.js';

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());

describe('6.2: user.kyc_updated', () => {
  it('6.2, 6.3: each aggregate change is delivered signed, with previous and current as refresh shows them', async () => {
    const mock = createMockService({ account: { webhookUrl: 'https://partner.test/hooks' } });
    server.use(...mswHandlers(mock));
    mock.helpers.webhooks.useFetch(async () => new Response(null, { status: 200 }));
    const client = new PayoutClient({ apiKey: mock.sandboxKey, baseUrl: mock.baseUrl, maxRetries: 0 });
    const { userId } = await client.users.create({ mobile: '9876543210', name: 'Asha Rao' });
    const { clientId } = await client.kyc.digilocker.init(userId);
    mock.helpers.digilocker.complete({ clientId, outcome: 'approve' });
    await client.kyc.bank.verify(userId, {
      accountNumber: '123456789012',
      ifsc: 'HDFC0001234',
      accountHolderName: 'Asha Rao',
    });
    const refreshed = await client.kyc.refresh(userId);
    await mock.clock.advance('1s');

    const deliveries = mock.helpers.webhooks.captured().filter((d) => d.eventType === 'user.kyc_updated');
    const events = deliveries.map((d) =>
      // Signed with the wall clock at the POST: verified as a receiver would, with its own clock.
      verifyWebhook(d.body, d.headers['x-service-signature'] ?? '', mock.webhookSecret),
    );
    expect(events.map((e) => e.event)).toEqual(['user.kyc_updated', 'user.kyc_updated']);
    const last = events[1]?.data;
    expect(KycRefresh.parse(last)).toMatchObject(refreshed);
    expect(last).toMatchObject({ userId });
  });
});
