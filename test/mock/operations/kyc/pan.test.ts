// A refused request changes nothing: the state after it is the state before, but for the rate-limit window
// every request counts against (spec 8), which the pipeline keeps before any route runs.
import { describe, expect, it } from 'vitest';
import { SANDBOX_KYC } from '../../../../mock/index.js';
import { createUser, mockServer, withoutRateWindows } from '../../support.js';

const mock = mockServer();

describe('a refused KYC request', () => {
  it('7.3: PAN_INVALID (400) leaves the state as it was, with no KYC record stored for the user', async () => {
    const { service, call } = mock.use();
    const userId = await createUser(call);
    const before = service.helpers.snapshot();
    expect(before.kyc.byUserId[userId]).toBeUndefined();

    const answer = await call('POST', `/v2/users/${userId}/kyc/pan/verify`, { body: { pan: 'NOT-A-PAN' } });

    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ code: 'PAN_INVALID' });
    const after = service.helpers.snapshot();
    expect(after.kyc.byUserId[userId]).toBeUndefined();
    expect(withoutRateWindows(after)).toEqual(withoutRateWindows(before));
  });

  it('4.7: a penny drop that fails on the sandbox account leaves the state as it was', async () => {
    const { service, call } = mock.use();
    const userId = await createUser(call);
    const before = service.helpers.snapshot();

    const answer = await call('POST', `/v2/users/${userId}/kyc/bank/verify`, {
      body: {
        accountNumber: SANDBOX_KYC.bank.pennyDropFails,
        ifsc: 'HDFC0001234',
        accountHolderName: 'Asha Rao',
      },
    });

    expect(answer.status).toBe(422);
    expect(withoutRateWindows(service.helpers.snapshot())).toEqual(withoutRateWindows(before));
  });
});
