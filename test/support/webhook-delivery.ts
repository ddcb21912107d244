// A delivery as the service makes it, for the tests of a webhook receiver (the handler, its node adapter, the
// replica proofs): a `user.created` event signed now, POSTed as JSON with its `x-service-signature`.
import { signWebhook } from 'inr-payouts/webhooks';

/** A signed delivery's raw body and its signature header. */
export interface Signed {
  body: string;
  signature: string;
}

/** The `user.created` event `id` (for `userId`, by default the event's own ID), signed with `secret` now. */
export function signedUserCreated(id: string, secret: string, userId = id): Signed {
  return signWebhook({
    payload: {
      id,
      event: 'user.created',
      timestamp: new Date().toISOString(),
      partnerId: 'p_1',
      data: { userId },
    },
    secret,
  });
}

/** POSTs `body` to `url` with `signature`, as the service delivers; `init` adds to the request (a signal). */
export function postSigned(
  url: string,
  { body, signature }: Signed,
  init: RequestInit = {},
): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/json', 'x-service-signature': signature },
    ...init,
  });
}
