// The partner's whole flow, one line per change, each stamped with the (virtual) time: onboard a user through KYC,
// create a transaction, fund it, receive the INR payout with its UTR and rate attribution, verify the webhooks,
// read the activity feed.
//
//   npx tsx node_modules/inr-payouts/examples/demo.ts     # against the embedded mock (no network, virtual clock)
//   npx inr-payouts-mock --port 4010 &
//   INR_PAYOUTS_BASE_URL=http://127.0.0.1:4010 npx tsx node_modules/inr-payouts/examples/demo.ts   # the mock server
//   INR_PAYOUTS_API_KEY=pk_sandbox_… INR_PAYOUTS_BASE_URL=https://… npx tsx node_modules/inr-payouts/examples/demo.ts
//
// (`npm run demo` in a clone of the repository.)
//
// Against a server, each run uses a new mobile number and bank account, so the demo runs again and again. The
// steps only a person can do (typing the OTP, giving consent, sending the deposit) use the standalone mock's test
// helpers when the server has them (`/__mock`); against a real sandbox the demo asks you in the terminal, and
// without a terminal (stdin closed, CI) it stops with a message saying what it needs.

import { randomInt } from 'node:crypto';
import { createInterface } from 'node:readline/promises';
import { fileURLToPath } from 'node:url';
import { type ActivityItem, APIConnectionError, APIError, PayoutClient, type Transaction } from 'inr-payouts';
import { createMockService, type MockService } from 'inr-payouts/mock';
import { verifyWebhook, type WebhookEvent } from 'inr-payouts/webhooks';

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

/**
 * What the demo needs done that a person would do, and the time it is: the embedded mock's helpers, the standalone
 * server's `/__mock` helpers, or a person at a terminal.
 */
interface World {
  describe: string;
  now(): Promise<string>;
  readOtp(userId: string, maskedMobile: string): Promise<string>;
  giveConsent(clientId: string, url: string): Promise<void>;
  /** Sends the deposit; answers how long its confirmations take, when that is known. */
  deposit(transaction: {
    transactionId: string;
    expectedAmount: string;
    depositAsset: string;
    depositAddress: string;
  }): Promise<number | undefined>;
  /** Lets `ms` of (virtual) time pass. */
  pass(ms: number): Promise<void>;
  /** Settled deal-rate tranches for the pool, where the demo can add them (a mock). */
  addTranches?(tranches: { rate: string; inrAmount: string }[]): Promise<void>;
}

/** The pool of settled deal-rate tranches the payout is attributed to (spec 2.4), oldest first. */
const TRANCHES = [
  { rate: '83.10', inrAmount: '5000.00' },
  { rate: '83.40', inrAmount: '50000.00' },
];

/** Runs the flow against `createMockService()`, or against `INR_PAYOUTS_BASE_URL` when it is set. */
export async function main(log: Log = console.log): Promise<DemoResult> {
  const baseUrl = process.env.INR_PAYOUTS_BASE_URL;
  if (baseUrl) {
    const helpers = await mockHelpersAt(baseUrl);
    const apiKey = process.env.INR_PAYOUTS_API_KEY || (await helpers?.sandboxKey());
    if (!apiKey) {
      throw new DemoStop(
        `INR_PAYOUTS_BASE_URL is set but INR_PAYOUTS_API_KEY is not: set it to your pk_sandbox_ key.`,
      );
    }
    const world = helpers ?? person();
    log(`Running against ${baseUrl} (${world.describe})`);
    return run(new PayoutClient({ apiKey, baseUrl }), world, undefined, log);
  }

  const mock = createMockService();
  log(`Running against the embedded mock at ${mock.baseUrl} (virtual clock)`);
  // mock.createClient(): the mock answers the client in-process (mock.fetch, no msw, no network), and every
  // wait of the client runs on the mock's virtual clock.
  return run(mock.createClient(), embedded(mock), mock, log);
}

async function run(
  client: PayoutClient,
  world: World,
  mock: MockService | undefined,
  log: Log,
): Promise<DemoResult> {
  const step = async (text: string) => log(`[${(await world.now()).slice(11, 19)}] ${text}`);
  const detail = (text: string) => log(`           ${text}`);
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
  }
  await world.addTranches?.(TRANCHES);

  // A fresh mobile number and account for every run against a server, which remembers the last run's user.
  const mobile = mock ? '9876543210' : `9${digits(9)}`;
  const accountNumber = mock ? '123456789012' : `12${digits(10)}`;
  const user = await client.users.create({ mobile, email: 'asha@example.com', name: 'Asha Rao' });
  await step(`Created user ${user.userId} (${user.mobile})`);

  const sent = await client.users.mobile.sendOtp(user.userId);
  const otp = await world.readOtp(user.userId, sent.maskedMobile);
  const confirmed = await client.users.mobile.confirm(user.userId, { otp });
  await step(
    `Mobile ${sent.maskedMobile} ${confirmed.mobileVerified ? 'verified' : 'NOT verified'} with its OTP`,
  );

  const session = await client.kyc.digilocker.init(user.userId, {
    redirectUrl: 'https://partner.example/kyc',
  });
  await world.giveConsent(session.clientId, session.url);
  const locker = await client.kyc.digilocker.waitForCompletion(user.userId, session.clientId);
  await step(
    `Document locker ${locker.status}: Aadhaar of ${locker.aadhaar?.name}, PAN ${locker.pan?.number}`,
  );

  const bank = await client.kyc.bank.verify(user.userId, {
    accountNumber,
    ifsc: 'HDFC0001234',
    accountHolderName: 'Asha Rao',
  });
  await step(
    `Bank account ${bank.maskedAccountNumber} at ${bank.bankName} ${bank.verified ? 'verified' : 'NOT verified'} by penny drop`,
  );

  const refreshed = await client.kyc.refresh(user.userId);
  await step(
    `KYC ${refreshed.previous.status} → ${refreshed.current.status} (level ${refreshed.current.level})`,
  );

  const created = await client.transactions.create({
    userId: user.userId,
    amount: '100.00',
    asset: 'USDT',
    network: 'polygon',
    partnerReference: `demo-${user.userId}`,
  });
  await step(
    `Transaction ${created.transactionId} created: send ${created.expectedAmount} ${created.depositAsset} on ` +
      `${created.depositNetwork} to ${created.depositAddress}`,
  );
  const { quote } = created;
  const fee =
    Number(quote.feeInr ?? '0') > 0 ? ` after your ₹${quote.feeInr} fee` : ' (no developer fee set)';
  detail(`quote: ${quote.exchangeRate} INR/USD, the user receives ₹${quote.netInr}${fee}`);

  const confirmationMs = await world.deposit(created);
  await step(
    `Deposit of ${created.expectedAmount} ${created.depositAsset} sent; the service watches the chain`,
  );

  // Poll as a partner would, printing a line only when something changed.
  const tick = confirmationMs ? Math.max(1_000, Math.ceil(confirmationMs / 8)) : 5_000;
  let last = '';
  let settledPolls = 0;
  let done: Transaction | undefined;
  for (let polls = 0; polls < 400 && !done; polls++) {
    const tx = await client.transactions.retrieve(created.transactionId);
    const { status } = tx.transaction;
    const payoutStatus = tx.payout?.status;
    const now = `${status}|${payoutStatus ?? ''}|${tx.payout?.rate ? 'attributed' : ''}`;
    if (now !== last) {
      last = now;
      await step(describeProgress(tx));
    }
    // Attribution follows the payout by a moment; a payout not funded from the pool never gets one.
    if (status === 'completed' && (tx.payout?.rate || ++settledPolls > 5)) done = tx;
    else if (status === 'failed' || status === 'cancelled') {
      throw new DemoStop(
        `Transaction ${created.transactionId} ${status}: ${tx.transaction.failureReason ?? 'no reason given'}`,
      );
    } else await world.pass(tick);
  }
  if (!done)
    throw new DemoStop(`Transaction ${created.transactionId} did not complete in time; look it up later.`);

  const payout = done.payout;
  await step(`Paid out ₹${payout?.amountInr} by ${payout?.rail}, bank reference (UTR) ${payout?.utr}`);
  if (!payout?.rate) await step('No rate attribution: this payout was not funded from your INR pool');
  else {
    await step(
      `Rate attribution: ${payout.usdtEquivalent} USDT of your pool at a blended ${payout.rate} INR/USDT`,
    );
  }
  if (payout?.rate) {
    // Two rates price the same rupees: the user's quote per USD, the pool's deals per USDT.
    detail(
      `The user was paid at the quote's ${created.quote.exchangeRate} INR/USD; the pool's rupees cost ` +
        `${payout.rate} INR/USDT, so they used ${payout.usdtEquivalent} USDT of it, not the ${created.expectedAmount} deposited.`,
    );
  }
  for (const a of payout?.allocations ?? [])
    detail(`deal ${a.dealNumber}: ₹${a.inrAmount} at ${a.rate} INR/USDT = ${a.usdtAmount} USDT`);

  if (mock) {
    await mock.clock.advance('1m'); // lets any retry of a delivery run
    await step(`Received and verified ${received.length} webhooks:`);
    for (const event of received) detail(`${event.event} (${event.id})${meaning(event.event)}`);
  } else {
    const page = await client.webhooks.list({ limit: 10 });
    await step(`Webhook events recorded by the service (${page.pagination?.total ?? page.data.length}):`);
    for (const event of page.data)
      detail(`${event.eventType} (${event.id}): ${event.status}${meaning(event.eventType)}`);
    if (
      page.data.some((event) => event.status === 'pending') &&
      !(await client.account.retrieve()).webhookUrl
    )
      detail(
        'pending: this account has no webhook URL, so the service has nowhere to deliver them yet ' +
          "(set it in the dashboard; the mock server takes --webhook-url <your receiver's URL>)",
      );
  }

  const activity = await client.account.listActivity({ limit: 5 });
  await step('Activity feed, newest first:');
  for (const item of activity)
    detail(
      `${item.id}  ${item.status}  ${item.depositAmount} ${item.depositAsset}  ₹${item.payoutAmountInr ?? '-'}  ${item.user.name}`,
    );

  return {
    userId: user.userId,
    transactionId: created.transactionId,
    status: done.transaction.status,
    utr: payout?.utr,
    rate: payout?.rate,
    webhooks: received.map((e) => e.event),
    activity,
  };
}

/** What an event a newcomer may not know means, as a short suffix. */
function meaning(event: string): string {
  return event === 'transaction.sweep_confirmed'
    ? ': the deposit was swept from its deposit address into the pool (settlement on chain)'
    : '';
}

function describeProgress(tx: Transaction): string {
  const { status } = tx.transaction;
  const { confirmations, requiredConfirmations } = tx.deposit;
  switch (status) {
    case 'deposit_pending':
      return `Deposit seen on chain (${tx.deposit.txHash ?? 'no hash yet'}), waiting for confirmations`;
    case 'deposit_detected':
      return `Deposit detected: ${confirmations ?? 0} of ${requiredConfirmations} confirmations`;
    case 'deposit_confirmed':
      return `Deposit confirmed (${requiredConfirmations} confirmations)`;
    case 'payout_processing':
      return `Payout of ₹${tx.payout?.amountInr ?? '…'} submitted to the bank by ${tx.payout?.rail ?? 'IMPS'}`;
    case 'completed':
      return tx.payout?.rate
        ? 'Payout completed and attributed to your pool'
        : 'Payout completed; attribution follows';
    default:
      return `Transaction ${status}`;
  }
}

function digits(n: number): string {
  return Array.from({ length: n }, () => randomInt(10)).join('');
}

/** The embedded mock: every step a person would do is a helper call, and time is the mock's clock. */
function embedded(mock: MockService): World {
  return {
    describe: 'embedded mock',
    now: async () => mock.clock.nowIso(),
    readOtp: async (userId) => mock.helpers.otp.read({ userId, channel: 'mobile' }).otp,
    giveConsent: async (clientId) => {
      mock.helpers.digilocker.complete({ clientId, outcome: 'approve' });
    },
    deposit: async ({ transactionId }) => mock.helpers.transactions.simulateDeposit({ transactionId }),
    pass: async (ms) => {
      await mock.clock.advance(ms);
    },
    addTranches: async (tranches) => {
      mock.helpers.tranches.add(tranches);
    },
  };
}

/** The standalone mock server's `/__mock` helpers, when `baseUrl` has them. */
async function mockHelpersAt(
  baseUrl: string,
): Promise<(World & { sandboxKey(): Promise<string> }) | undefined> {
  const helper = async <T>(path: string, body?: unknown): Promise<T> => {
    // A helper with no argument takes no body; the others take their argument as JSON.
    const response = await fetch(
      new URL(`/__mock/${path}`, baseUrl),
      body === undefined
        ? { method: 'POST' }
        : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) },
    );
    const answer = (await response.json()) as { success?: boolean; data?: T; message?: string };
    if (!response.ok || !answer.success)
      throw new DemoStop(`The mock's ${path} helper refused: ${answer.message}`);
    return answer.data as T;
  };
  try {
    const listing = await fetch(new URL('/__mock', baseUrl));
    if (!listing.ok) return undefined;
  } catch {
    return undefined;
  }
  return {
    describe: "the standalone mock's test helpers stand in for the user",
    sandboxKey: async () => (await helper<{ keys: { sandbox: string } }>('accounts/get')).keys.sandbox,
    now: () => helper<string>('clock/now'),
    readOtp: async (userId) => (await helper<{ otp: string }>('otp/read', { userId, channel: 'mobile' })).otp,
    giveConsent: async (clientId) => {
      await helper('digilocker/complete', { clientId, outcome: 'approve' });
    },
    deposit: ({ transactionId }) => helper<number>('transactions/simulateDeposit', { transactionId }),
    pass: async (ms) => {
      await helper('clock/advance', { duration: ms });
    },
    addTranches: async (tranches) => {
      await helper('tranches/add', { tranches });
    },
  };
}

/** A real sandbox: a person types the OTP, gives consent and sends the deposit; time is the wall clock. */
function person(): World {
  const needTerminal = (what: string) => {
    if (!process.stdin.isTTY) {
      throw new DemoStop(
        `This step needs a person: ${what}. Standard input is not a terminal, so the demo cannot ask. Run it in a ` +
          'terminal, or against the standalone mock server (npx inr-payouts-mock), whose test helpers do it.',
      );
    }
  };
  return {
    describe: 'you do the steps a user would',
    now: async () => new Date().toISOString(),
    readOtp: async (_userId, maskedMobile) => {
      needTerminal(`type the OTP sent to ${maskedMobile}`);
      return ask(`Enter the OTP sent to ${maskedMobile}: `);
    },
    giveConsent: async (_clientId, url) => {
      needTerminal(`give consent at ${url}`);
      await ask(`Open ${url}, give consent, then press Enter: `);
    },
    deposit: async ({ expectedAmount, depositAsset, depositAddress }) => {
      needTerminal(`send ${expectedAmount} ${depositAsset} to ${depositAddress}`);
      await ask(`Send ${expectedAmount} ${depositAsset} to ${depositAddress}, then press Enter: `);
      return undefined;
    },
    pass: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  };
}

async function ask(question: string): Promise<string> {
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  try {
    return (await rl.question(question)).trim();
  } finally {
    rl.close();
  }
}

/** The demo cannot go on, for a reason it can state. */
class DemoStop extends Error {}

/** One line a person can act on, for any error the demo meets. */
export function explain(error: unknown): string {
  if (error instanceof APIError) {
    const code = error.code ? ` ${error.code}` : '';
    return `The service answered ${error.status}${code}: ${error.message}`;
  }
  if (error instanceof APIConnectionError) {
    return `Could not reach the service (${error.message}). Is INR_PAYOUTS_BASE_URL right, and is the server running?`;
  }
  if (error instanceof DemoStop) return error.message;
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  main().catch((error: unknown) => {
    console.error(`Demo stopped. ${explain(error)}`);
    process.exitCode = 1;
  });
}
