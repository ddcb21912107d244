/**
 * `--sandbox-key` and `--webhook-secret`: a compose file or a CI service fixes the default account's key and
 * secret, so the services beside the mock are configured before it starts; a reset keeps them and the webhook
 * URL, and a state file made with other values is refused rather than served with keys the other services do
 * not hold.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { verifyWebhook } from 'inr-payouts/webhooks';
import { afterAll, describe, expect, it } from 'vitest';
import { createUser, startServer } from './support.js';

const dir = mkdtempSync(join(tmpdir(), 'inr-payouts-fixed-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const KEY = 'pk_sandbox_compose_example';
const SECRET = 'whsec_compose_example';

describe('a fixed sandbox key and webhook secret', () => {
  it('are printed, answer the API, sign the webhooks and survive a reset', async () => {
    const deliveries: { body: string; signature: string }[] = [];
    const receiver = createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      deliveries.push({
        body: Buffer.concat(chunks).toString('utf8'),
        signature: String(req.headers['x-service-signature']),
      });
      res.end();
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const { port } = receiver.address() as AddressInfo;
    const server = await startServer([
      '--sandbox-key',
      KEY,
      '--webhook-secret',
      SECRET,
      '--webhook-url',
      `http://127.0.0.1:${port}/webhooks`,
    ]);
    try {
      expect([server.key, server.secret]).toEqual([KEY, SECRET]);
      const userId = await createUser(server);
      expect((await server.call('GET', `/v2/users/${userId}/kyc/status`)).status).toBe(200);
      await server.helper('webhooks/settle');
      const [delivery] = deliveries;
      expect(verifyWebhook(delivery?.body ?? '', delivery?.signature ?? '', SECRET)).toMatchObject({
        event: 'user.created',
        data: { userId },
      });
      await server.helper('reset');
      const account = (await server.helper('accounts/get')).body.data;
      expect(account).toMatchObject({
        keys: { sandbox: KEY },
        webhookSecret: SECRET,
        webhookUrl: `http://127.0.0.1:${port}/webhooks`,
      });
      // The events after a reset, with or without a new seed, still reach the URL the server started with.
      for (const reset of [undefined, { seed: 'after-reset' }]) {
        if (reset) await server.helper('reset', reset);
        const before = deliveries.length;
        const again = await createUser(server);
        await server.helper('webhooks/settle');
        const [sent] = deliveries.slice(before);
        expect(verifyWebhook(sent?.body ?? '', sent?.signature ?? '', SECRET)).toMatchObject({
          event: 'user.created',
          data: { userId: again },
        });
      }
    } finally {
      await server.stop();
      receiver.close();
    }
  });

  it('a state file made with other values is refused, named, and left as it was', async () => {
    const file = join(dir, 'fixed.db');
    const first = await startServer(['--state-file', file, '--sandbox-key', KEY, '--webhook-secret', SECRET]);
    const userId = await createUser(first);
    expect(await first.stop()).toBe(0);
    const before = readFileSync(file);

    await expect(
      startServer(['--state-file', file, '--sandbox-key', KEY, '--webhook-secret', 'whsec_other']),
    ).rejects.toThrow(
      /--webhook-secret: the state file .*fixed\.db holds an account with another webhook secret/,
    );
    await expect(startServer(['--state-file', file, '--sandbox-key', 'pk_sandbox_other'])).rejects.toThrow(
      /--sandbox-key: the state file .* another sandbox key .*start on a new file/,
    );
    expect(readFileSync(file).equals(before)).toBe(true);

    // The same values, or none: the file's account, loaded.
    const second = await startServer([
      '--state-file',
      file,
      '--sandbox-key',
      KEY,
      '--webhook-secret',
      SECRET,
    ]);
    try {
      expect(second.output()).toContain('(loaded)');
      expect((await second.call('GET', `/v2/users/${userId}/kyc/status`)).status).toBe(200);
    } finally {
      await second.stop();
    }
  }, 60_000);
});
