// The checks every runtime of the matrix runs against the BUILT package (dist/), the same code a partner
// installs: the client against the standalone mock server, and the webhook verifier (sync where node:crypto
// exists, async everywhere). Plain JavaScript so every runtime runs it unchanged, with no build step.
import { PayoutClient } from '../../dist/index.js';
import { verifyWebhook, verifyWebhookAsync, WebhookVerificationError } from '../../dist/webhooks.js';

/** HMAC-SHA256 hex over `<t>.<body>` with WebCrypto: the service's signature (spec 6.3), computed independently. */
async function sign(secret, timestamp, body) {
  const enc = new TextEncoder();
  const key = await crypto.subtle.importKey(
    'raw',
    enc.encode(secret),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  );
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', key, enc.encode(`${timestamp}.${body}`)));
  return `t=${timestamp},v1=${Array.from(mac, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}

async function check(name, run) {
  try {
    const detail = await run();
    return { name, ok: true, detail: detail ?? '' };
  } catch (error) {
    const detail = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    return { name, ok: false, detail };
  }
}

function expect(condition, message) {
  if (!condition) throw new Error(message);
}

/** What `run` throws or rejects with; undefined when it does neither. */
async function thrown(run) {
  try {
    await run();
  } catch (error) {
    return error;
  }
}

/**
 * Runs every check against the mock server the environment names; never throws.
 * @param {{ MOCK_BASE_URL: string; MOCK_API_KEY: string; MOCK_WEBHOOK_SECRET: string; MOCK_MOBILE: string }} env
 * @returns {Promise<{ name: string; ok: boolean; detail: string }[]>}
 */
export async function runChecks(env) {
  const { MOCK_BASE_URL: baseUrl, MOCK_API_KEY: apiKey, MOCK_WEBHOOK_SECRET: secret } = env;
  const client = new PayoutClient({ apiKey, baseUrl, maxRetries: 0, timeout: 10_000 });
  let userId = '';
  const results = [
    await check('client: create a user', async () => {
      const user = await client.users.create({ mobile: env.MOCK_MOBILE, name: 'Asha Rao' });
      expect(typeof user.userId === 'string' && user.userId !== '', 'no userId in the answer');
      userId = user.userId;
      return user.userId;
    }),
    await check('client: read the account', async () => {
      const account = await client.account.retrieve();
      expect(typeof account.name === 'string', 'no account name in the answer');
      return account.name;
    }),
  ];

  const timestamp = Math.floor(Date.now() / 1000);
  const body = JSON.stringify({
    id: 'evt_runtime_1',
    event: 'user.created',
    timestamp: new Date(timestamp * 1000).toISOString(),
    partnerId: 'p_runtime',
    data: { userId: userId || 'usr_1', createdAt: new Date(timestamp * 1000).toISOString() },
  });
  const header = await sign(secret, timestamp, body);
  const tampered = body.replace('evt_runtime_1', 'evt_runtime_2');
  /** A verifier accepts the signed event and refuses the changed one. */
  const verifies = async (verify) => {
    const event = await verify(body, header, secret);
    expect(event.id === 'evt_runtime_1', `verified the wrong event ${event.id}`);
    const refused = await thrown(() => verify(tampered, header, secret));
    expect(refused instanceof WebhookVerificationError, `a changed body was not refused: ${refused}`);
    return event.event;
  };

  results.push(
    await check('webhooks: verifyWebhookAsync accepts a signed event and refuses a changed one', () =>
      verifies(verifyWebhookAsync),
    ),
    globalThis.process?.getBuiltinModule?.('node:crypto') !== undefined
      ? await check(
          'webhooks: verifyWebhook (sync, node:crypto) accepts a signed event and refuses a changed one',
          () => verifies(verifyWebhook),
        )
      : await check(
          'webhooks: without node:crypto, verifyWebhook says to use verifyWebhookAsync',
          async () => {
            const error = await thrown(() => verifyWebhook(body, header, secret));
            expect(/verifyWebhookAsync/.test(String(error?.message)), `unexpected: ${error}`);
            return 'no node:crypto here';
          },
        ),
  );
  return results;
}
