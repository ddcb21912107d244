// Every entry, imported and used with its types. check.mjs compiles this file under each moduleResolution; for
// node16 and nodenext it also compiles a copy as an ES module (.mts), so both of the package's formats resolve.
import { PayoutClient, type User, ValidationError } from 'inr-payouts';
import { createMockService, type MockService } from 'inr-payouts/mock';
import { type DecimalInput, fitsCredit } from 'inr-payouts/money';
import { verifyWebhook, type WebhookEvent } from 'inr-payouts/webhooks';

export const client: PayoutClient = new PayoutClient({
  apiKey: 'pk_sandbox_example',
  baseUrl: 'http://127.0.0.1:4010',
});

export async function createUser(mobile: string): Promise<User['userId']> {
  const user = await client.users.create({ mobile });
  return user.userId;
}

export function eventType(
  body: string,
  signature: string | undefined,
  secret: string,
): WebhookEvent['event'] {
  return verifyWebhook(body, signature, secret).event;
}

const amount: DecimalInput = '99.99';
export const fits: boolean = fitsCredit({ availableUsd: '100.00' }, amount);

export const mock: MockService = createMockService({ seed: 'types' });

export const isValidationError = (error: unknown): error is ValidationError =>
  error instanceof ValidationError;

// The types are real, not `any`: a number where the spec has a string is refused.
// @ts-expect-error mobile is a string
void client.users.create({ mobile: 9876543210 });
