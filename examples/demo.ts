// The partner's whole flow, one step a line: onboard a user through KYC, create a transaction, fund it, receive
// the INR payout with its UTR and rate attribution, verify the webhooks, read the activity feed.
//
//   npm run demo                                   # against the embedded mock (no network, virtual clock)
//   INR_PAYOUTS_API_KEY=pk_sandbox_… INR_PAYOUTS_BASE_URL=https://… npm run demo   # against your sandbox
//
// Against a real sandbox the mock-only steps (reading the OTP, approving consent, sending the deposit) print
// what to do instead, and the script waits for you.

import { createInterface } from 'node:readline/promises';
import { fileURLToPath } from 'node:url';
import { type ActivityItem, PayoutClient, type Transaction } from 'inr-payouts';
import { createMockService, type MockService } from 'inr-payouts/mock';
import { verifyWebhook, type WebhookEvent } from 'inr-payouts/webhooks';
import { setupServer } from 'msw/node';

/** What the demo did, for the tests. */
export interface DemoResult {
  userId: string;
  transactionId: string;
  status: string;
  utr: string | null | undefined;
  rate: string | undefined;
  webhooks: string[];
  activity: ActivityItem[];
}

type Log = (line: string) => void;

/** Runs the flow against `createMockService()` unless both sandbox variables are set. */
export async function main(log: Log = console.log): Promise<DemoResult> {
  const apiKey = process.env.INR_PAYOUTS_API_KEY;
  const baseUrl = process.env.INR_PAYOUTS_BASE_URL;
  if (apiKey && baseUrl) return run(new PayoutClient({ apiKey, baseUrl }), undefined, log);

  const mock = createMockService();
  const server = setupServer(...mock.handlers);
  server.listen({ onUnhandledRequest: 'error' });
  try {
    log(`Running against the embedded mock at ${mock.baseUrl} (virtual clock from ${mock.clock.nowIso()})`);
    return await run(new PayoutClient({ apiKey: mock.sandboxKey, baseUrl: mock.baseUrl }), mock, log);
  } finally {
    server.close();
  }
}

async function run(client: PayoutClient, mock: MockService | undefined, log: Log): Promise<DemoResult> {
  let n = 0;
  const step = (text: string) => log(`${String(++n).padStart(2)}. ${text}`);
  const wait = (text: string) => log(`      … ${text}`);
  const received: WebhookEvent[] = [];

  if (mock) {
    // Deliver the webhooks to an in-process receiver that verifies them, as your endpoint would.
    mock.helpers.accounts.update({ webhookUrl: 'https://partner.example/webhooks' });
    mock.helpers.webhooks.useFetch(async (_url, init) => {
      const signature = new Headers(init.headers).get('x-service-signature') ?? undefined;
      // Signed with the wall clock at the POST: verified as your endpoint would, with its own clock.
      received.push(verifyWebhook(String(init.body), signature, mock.webhookSecret));
      return new Response(null, { status: 200 });
    });
    // The pool of settled deal-rate tranches the payout is attributed to (spec 2.4), oldest first.
    mock.helpers.tranches.add([
      { rate: '83.10', inrAmount: '5000.00' },
      { rate: '83.40', inrAmount: '50000.00' },
    ]);
  }

  const user = await client.users.create({
    mobile: '9876543210',
    email: 'asha@example.com',
    name: 'Asha Rao',
  });
  step(`Created user ${user.userId} (${user.mobile})`);

  const sent = await client.users.mobile.sendOtp(user.userId);
  const otp = mock
    ? mock.helpers.otp.read({ userId: user.userId, channel: 'mobile' }).otp
    : await ask(`Enter the OTP sent to ${sent.maskedMobile}: `);
  const mobile = await client.users.mobile.confirm(user.userId, { otp });
  step(
    `Mobile ${sent.maskedMobile} ${mobile.mobileVerified ? 'verified' : 'NOT verified'} with the OTP sent to it`,
  );

  const session = await client.kyc.digilocker.init(user.userId, {
    redirectUrl: 'https://partner.example/kyc',
  });
  if (mock) mock.helpers.digilocker.complete({ clientId: session.clientId, outcome: 'approve' });
  else log(`      Open ${session.url} and give consent; waiting for it.`);
  wait('waiting for the document-locker consent');
  const locker = await client.kyc.digilocker.waitForCompletion(user.userId, session.clientId);
  step(`Document locker ${locker.status}: Aadhaar of ${locker.aadhaar?.name}, PAN ${locker.pan?.number}`);

  const bank = await client.kyc.bank.verify(user.userId, {
    accountNumber: '123456789012',
    ifsc: 'HDFC0001234',
    accountHolderName: 'Asha Rao',
  });
  step(
    `Bank account ${bank.maskedAccountNumber} at ${bank.bankName} ${bank.verified ? 'verified' : 'NOT verified'} by penny drop`,
  );

  const refreshed = await client.kyc.refresh(user.userId);
  step(`KYC ${refreshed.previous.status} → ${refreshed.current.status} (level ${refreshed.current.level})`);

  const created = await client.transactions.create({
    userId: user.userId,
    amount: '100.00',
    asset: 'USDT',
    network: 'polygon',
    partnerReference: `demo-${user.userId}`,
  });
  step(
    `Transaction ${created.transactionId}: send ${created.expectedAmount} ${created.depositAsset} on ` +
      `${created.depositNetwork} to ${created.depositAddress} (quote ${created.quote.exchangeRate} INR/USD, ` +
      `net ₹${created.quote.netInr})`,
  );

  if (mock) {
    const ms = mock.helpers.transactions.simulateDeposit({ transactionId: created.transactionId });
    step(`Simulated the deposit of ${created.expectedAmount} ${created.depositAsset}; confirmations follow`);
    // Walk the virtual clock in slices so each wait shows progress, as polling a real service would.
    for (let at = ms / 4; at <= ms; at += ms / 4) {
      await mock.clock.advance(ms / 4);
      const tx = await client.transactions.retrieve(created.transactionId);
      wait(`+${at / 1000} s: ${tx.transaction.status}, ${tx.deposit.confirmations ?? 0} confirmations`);
    }
  } else {
    log(`      Send ${created.expectedAmount} ${created.depositAsset} to ${created.depositAddress} now.`);
  }

  const done = mock
    ? await settle(client, mock, created.transactionId, wait)
    : await client.transactions.waitForStatus(created.transactionId, {
        statuses: ['completed'],
        interval: 5_000,
      });
  step(
    `Payout ${done.payout?.status}: ₹${done.payout?.amountInr} by ${done.payout?.rail}, UTR ${done.payout?.utr}`,
  );
  const attributed = mock ? done : await client.transactions.waitForAttribution(created.transactionId);
  const payout = attributed.payout;
  step(`Rate attribution: ${payout?.rate} INR/USDT, ${payout?.usdtEquivalent} USDT consumed`);
  for (const a of payout?.allocations ?? [])
    log(`      deal ${a.dealNumber}: ₹${a.inrAmount} at ${a.rate} = ${a.usdtAmount} USDT`);

  if (mock) {
    await mock.clock.advance('1m'); // lets any retry of a delivery run
    step(`Received and verified ${received.length} webhooks:`);
    for (const event of received) log(`      ${event.event} (${event.id})`);
  } else {
    const page = await client.webhooks.list({ limit: 10 });
    step(`Webhook events recorded by the service (${page.pagination?.total ?? page.data.length}):`);
    for (const event of page.data) log(`      ${event.eventType} (${event.id}): ${event.status}`);
  }

  const activity = await client.account.listActivity({ limit: 5 });
  step('Activity feed:');
  for (const item of activity)
    log(
      `      ${item.id}  ${item.status}  ${item.depositAmount} ${item.depositAsset}  ` +
        `₹${item.payoutAmountInr ?? '-'}  ${item.user.name}`,
    );

  return {
    userId: user.userId,
    transactionId: created.transactionId,
    status: done.transaction.status,
    utr: done.payout?.utr,
    rate: payout?.rate,
    webhooks: received.map((e) => e.event),
    activity,
  };
}

/** Moves the mock's clock until the payout has completed and been attributed. */
async function settle(client: PayoutClient, mock: MockService, id: string, wait: Log): Promise<Transaction> {
  for (let i = 0; i < 30; i++) {
    const tx = await client.transactions.retrieve(id);
    if (tx.transaction.status === 'completed' && tx.payout?.rate) return tx;
    if (tx.transaction.status === 'failed')
      throw new Error(`Transaction ${id} failed: the payout was rejected`);
    wait(`${tx.transaction.status}, payout ${tx.payout?.status ?? 'not started'}`);
    await mock.clock.advance('5s');
  }
  throw new Error(`Transaction ${id} did not complete within 150 virtual seconds`);
}

async function ask(question: string): Promise<string> {
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  try {
    return (await rl.question(question)).trim();
  } finally {
    rl.close();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
