/**
 * What the `check-receiver` tests share: the secrets the checks sign with, our receiver (createWebhookHandler,
 * as kept in examples/webhooks/), and receivers listening on 127.0.0.1 for one test each.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach } from 'vitest';
import { createWebhookServer } from '../../../examples/webhooks/node-http.js';

/** The current webhook secret. */
export const SECRET = 'whsec_check_current';
/** The next webhook secret, for the rotation check. */
export const NEXT = 'whsec_check_next';

/** Our receiver, which accepts both secrets and pushes each handled event's ID to `handled`. */
export function ours(handled: string[] = []): Server {
  return createWebhookServer([SECRET, NEXT], { push: (event) => handled.push(event.id) });
}

/**
 * For the tests of the file or `describe` block this is called in: `listen` starts a receiver on a free port and
 * resolves with its webhook URL; each receiver is closed after the test that started it.
 */
export function receiversPerTest(): (server: Server) => Promise<string> {
  const closers: (() => void)[] = [];
  afterEach(() => {
    for (const close of closers.splice(0)) close();
  });
  return async (server) => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    closers.push(() => server.close());
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
  };
}
