// The demo's whole flow (examples/demo.ts) through a client generated from the two OpenAPI documents, with
// @hey-api/openapi-ts: no cast and no hand-written type, so a partner in any language with an OpenAPI generator
// can follow the same steps. `generated/` is not committed; README.md says how to make it.
//
//   npx inr-payouts-mock --speed manual &
//   npx tsx examples/generated-client/flow.ts http://127.0.0.1:4010
//
// A second address sends the helpers there and the API calls to the first (CI puts a validating proxy, Prism, in
// front of the API).
import { randomUUID } from 'node:crypto';
import { client as api } from './generated/api/client.gen.js';
import {
  accountListActivity,
  kycBankVerify,
  kycDigilockerInit,
  kycDigilockerStatus,
  kycDocumentConfirm,
  kycDocumentCreateUploadUrl,
  kycDocumentUpload,
  kycRefresh,
  transactionsCreate,
  transactionsRetrieve,
  usersCreate,
  usersMobileConfirm,
  usersMobileSendOtp,
  webhooksList,
} from './generated/api/sdk.gen.js';
import { client as helpers } from './generated/mock/client.gen.js';
import {
  accountsGet,
  clockAdvance,
  digilockerComplete,
  otpRead,
  reset,
  tranchesAdd,
  transactionsSimulateDeposit,
} from './generated/mock/sdk.gen.js';

const baseUrl = (process.argv[2] ?? 'http://127.0.0.1:4010').replace(/\/+$/, '');
const helpersUrl = (process.argv[3] ?? baseUrl).replace(/\/+$/, '');
const log = (line: string) => console.log(line);

// The helpers' document: a fresh sandbox, its API key, and a pool of settled tranches the payout draws on.
helpers.setConfig({ baseUrl: helpersUrl });
await reset({ body: { seed: 'generated-client' } });
const { data: account } = await accountsGet({ body: {} });
api.setConfig({ baseUrl, auth: () => account.data.keys.sandbox });
await tranchesAdd({
  body: {
    tranches: [
      { rate: '83.10', inrAmount: '5000.00' },
      { rate: '83.45', inrAmount: '20000.00' },
    ],
  },
});

const { data: user } = await usersCreate({
  body: { mobile: '9876543210', email: 'asha@example.com', name: 'Asha Rao' },
  headers: { 'Idempotency-Key': randomUUID() },
});
const userId = user.data.userId;
log(`Created user ${userId}`);

const { data: sent } = await usersMobileSendOtp({ path: { userId } });
const { data: otp } = await otpRead({ body: { userId, channel: 'mobile' } });
const { data: confirmed } = await usersMobileConfirm({ path: { userId }, body: { otp: otp.data.otp } });
log(`Mobile ${sent.data.maskedMobile} verified: ${confirmed.data.mobileVerified}`);

const { data: session } = await kycDigilockerInit({
  path: { userId },
  body: { redirectUrl: 'https://partner.example/kyc' },
});
await digilockerComplete({ body: { clientId: session.data.clientId, outcome: 'approve' } });
const { data: locker } = await kycDigilockerStatus({
  path: { userId },
  query: { clientId: session.data.clientId },
});
log(`Document locker: ${locker.data.status}`);

// The two-step document upload (spec 4.10): a presigned URL, the PUT to it, then the confirmation.
const file = new Blob(['%PDF-1.7 generated-client'], { type: 'application/pdf' });
const { data: upload } = await kycDocumentCreateUploadUrl({
  path: { userId },
  body: {
    documentType: 'passport',
    fileName: 'passport.pdf',
    mimeType: 'application/pdf',
    fileSize: file.size,
    deviceId: 'device-1',
  },
});
const presigned = new URL(upload.data.uploadUrl);
await kycDocumentUpload({
  path: { s3Key: upload.data.s3Key },
  query: {
    expires: presigned.searchParams.get('expires') ?? undefined,
    signature: presigned.searchParams.get('signature') ?? undefined,
  },
  body: file,
  headers: { 'Content-Type': 'application/pdf' },
});
const { data: document } = await kycDocumentConfirm({
  path: { userId },
  body: {
    s3Key: upload.data.s3Key,
    documentType: 'passport',
    fileName: 'passport.pdf',
    mimeType: 'application/pdf',
    fileSize: file.size,
    deviceId: 'device-1',
  },
});
log(`Document ${document.data.documentId} uploaded`);

const { data: bank } = await kycBankVerify({
  path: { userId },
  body: { accountNumber: '123456789012', ifsc: 'HDFC0001234', accountHolderName: 'Asha Rao' },
});
log(`Bank account verified: ${bank.data.verified}`);
const { data: refreshed } = await kycRefresh({ path: { userId } });
log(`KYC ${refreshed.data.previous.status} → ${refreshed.data.current.status}`);

const { data: created } = await transactionsCreate({
  body: {
    userId,
    amount: '100.00',
    asset: 'USDT',
    network: 'polygon',
    partnerReference: `generated-${userId}`,
  },
  headers: { 'Idempotency-Key': randomUUID() },
});
const transactionId = created.data.transactionId;
log(
  `Transaction ${transactionId}: send ${created.data.expectedAmount} USDT to ${created.data.depositAddress}`,
);

const { data: confirmation } = await transactionsSimulateDeposit({ body: { transactionId } });
await clockAdvance({ body: { duration: confirmation.data } });
await clockAdvance({ body: { duration: '1m' } });

const { data: done } = await transactionsRetrieve({ path: { transactionId } });
const payout = done.data.payout;
log(
  `Transaction ${done.data.transaction.status}: ₹${payout?.amountInr} by ${payout?.rail}, UTR ${payout?.utr}`,
);
log(`Rate attribution: ${payout?.usdtEquivalent} USDT at ${payout?.rate} INR/USDT`);
if (done.data.transaction.status !== 'completed' || !payout?.rate)
  throw new Error('the payout did not complete');

const { data: events } = await webhooksList({ query: { limit: 10 } });
log(`Webhook events recorded: ${events.pagination.total}`);
const { data: activity } = await accountListActivity({ query: { limit: 5 } });
for (const item of activity.data) log(`${item.id} ${item.status} ₹${item.payoutAmountInr ?? '-'}`);
