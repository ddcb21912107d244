import { WebhookVerificationError as EntryWebhookVerificationError } from 'inr-payouts/webhooks';
import { describe, expect, it } from 'vitest';
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APITimeoutError,
  APIUserAbortError,
  ConfigurationError,
  PayoutClient,
  PayoutError,
  WebhookVerificationError,
} from '../../src/index.js';
import { PayoutError as SharedPayoutError } from '../../src/shared/payout-error.js';
import { makeClient, useServer } from '../support/msw.js';

// The conventions partner engineers bring from stripe-node and openai-node (docs/coming-from-stripe-or-openai.md).

useServer();

describe('one error tree', () => {
  it('connection, time-out and abort errors are APIErrors with status undefined', async () => {
    const dropped = makeClient({
      fetch: async () => {
        throw new TypeError('fetch failed');
      },
    });
    const connection = await dropped.account.retrieve().catch((e: unknown) => e);
    expect(connection).toBeInstanceOf(APIConnectionError);
    expect(connection).toBeInstanceOf(APIError);
    expect(connection).toMatchObject({ status: undefined, code: 'CONNECTION_ERROR' });
    const timeout = new APITimeoutError('GET /v2/account', 10);
    expect(timeout).toBeInstanceOf(APIConnectionTimeoutError);
    expect(timeout).toBeInstanceOf(APIError);
    expect(timeout).toMatchObject({ status: undefined, code: 'TIMEOUT' });
    const aborted = await makeClient()
      .account.retrieve({ signal: AbortSignal.abort() })
      .catch((e: unknown) => e);
    expect(aborted).toBeInstanceOf(APIUserAbortError);
    expect(aborted).toMatchObject({ status: undefined, code: 'ABORTED' });
  });

  it('the webhooks entry error is a PayoutError, and the class is shared with the client entry', () => {
    expect(new EntryWebhookVerificationError('missing_header', 'x')).toBeInstanceOf(PayoutError);
    expect(EntryWebhookVerificationError).toBe(WebhookVerificationError);
  });

  it('instanceof PayoutError holds for an error of another copy of the package', () => {
    // What a second copy (the CommonJS build beside the ESM one, or the webhooks bundle) makes: an error whose
    // prototype carries the shared brand but is not this copy's class.
    const foreign = Object.create(SharedPayoutError.prototype, {}) as object;
    const stranger = Object.setPrototypeOf(
      new Error('x'),
      Object.create(Error.prototype, {
        [Symbol.for('inr-payouts.PayoutError')]: { value: true },
      }),
    ) as Error;
    expect(foreign).toBeInstanceOf(PayoutError);
    expect(stranger).toBeInstanceOf(PayoutError);
    expect(new Error('plain')).not.toBeInstanceOf(PayoutError);
    expect(stranger).not.toBeInstanceOf(APIError);
    const webhookStranger = Object.create(
      Object.create(SharedPayoutError.prototype, {
        [Symbol.for('inr-payouts.WebhookVerificationError')]: { value: true },
      }),
    ) as object;
    expect(webhookStranger).toBeInstanceOf(WebhookVerificationError);
    expect(webhookStranger).toBeInstanceOf(PayoutError);
    expect(new Error('plain')).not.toBeInstanceOf(WebhookVerificationError);
  });

  it('every error class is a static of PayoutClient', () => {
    expect(PayoutClient.APIError).toBe(APIError);
    expect(PayoutClient.APIConnectionTimeoutError).toBe(APITimeoutError);
    expect(PayoutClient.WebhookVerificationError).toBe(WebhookVerificationError);
    expect(PayoutClient.ConfigurationError).toBe(ConfigurationError);
  });
});
