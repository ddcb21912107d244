// Every field rule of the spec fails before sending: a ValidationError that names the field and the rule, and no
// request on the wire.
import { describe, expect, it } from 'vitest';
import { type PayoutClient, ValidationError } from '../../src/index.js';
import { makeClient, requests, useServer } from '../support/msw.js';

useServer();
const client = makeClient();

// Inputs deliberately outside the types: partners calling from JavaScript, or with data from elsewhere.
// biome-ignore lint/suspicious/noExplicitAny: bad inputs on purpose
type Loose = any;

const tx = { userId: 'usr_1', amount: '100', asset: 'USDC', network: 'polygon' } as const;
const bank = { accountNumber: '123456789012', ifsc: 'HDFC0001234', accountHolderName: 'Asha Rao' };
const doc = {
  documentType: 'passport',
  fileName: 'passport.pdf',
  mimeType: 'application/pdf',
  fileSize: 2048,
  deviceId: 'fp-1',
} as const;
const confirm = { ...doc, s3Key: 'kyc/usr_1/abc' };
const declaration = {
  occupation: 'salaried',
  incomeRange: 'below_5l',
  isPep: false,
  declarationAccepted: true,
};

interface Case {
  rule: string;
  call: (c: PayoutClient) => PromiseLike<unknown>;
  field: string;
  message: RegExp;
}

const cases: Case[] = [
  // Transactions: amount, asset, network, required fields (standard and prefunded).
  ...[
    ['below 10', '9.99', /at least|minimum of 10/],
    ['above 50,000', '50000.01', /maximum of 50,000/],
    ['an exponent', '1e3', /decimal string/],
    ['a sign', '-10', /decimal string/],
    ['a leading dot', '.5', /decimal string/],
    ['empty', '', /decimal string/],
    ['a number', 100, /decimal string/],
  ].flatMap(([what, amount, message]) => [
    {
      rule: `create: amount ${what}`,
      call: (c: PayoutClient) => c.transactions.create({ ...tx, amount } as Loose),
      field: 'amount',
      message: message as RegExp,
    },
    {
      rule: `createPrefunded: amount ${what}`,
      call: (c: PayoutClient) => c.transactions.createPrefunded({ ...tx, amount } as Loose),
      field: 'amount',
      message: message as RegExp,
    },
  ]),
  {
    rule: 'asset enum',
    call: (c) => c.transactions.create({ ...tx, asset: 'BTC' } as Loose),
    field: 'asset',
    message: /one of USDC, USDT/,
  },
  {
    rule: 'network enum',
    call: (c) => c.transactions.create({ ...tx, network: 'tron' } as Loose),
    field: 'network',
    message: /polygon, ethereum, arbitrum, base, solana/,
  },
  {
    rule: 'userId required',
    call: (c) => c.transactions.create({ ...tx, userId: undefined } as Loose),
    field: 'userId',
    message: /required/,
  },
  {
    rule: 'prefunded network required',
    call: (c) => c.transactions.createPrefunded({ ...tx, network: undefined } as Loose),
    field: 'network',
    message: /one of/,
  },
  {
    rule: 'partnerReference non-empty',
    call: (c) => c.transactions.create({ ...tx, partnerReference: '' }),
    field: 'partnerReference',
    message: /non-empty/,
  },
  {
    rule: 'metadata an object',
    call: (c) => c.transactions.create({ ...tx, metadata: 'x' } as Loose),
    field: 'metadata',
    message: /object/,
  },
  // Developer fee.
  {
    rule: 'fee above 0.05',
    call: (c) => c.account.updateDeveloperFee({ enabled: true, percent: 0.051 }),
    field: 'percent',
    message: /0 to 0\.05/,
  },
  {
    rule: 'fee below 0',
    call: (c) => c.account.updateDeveloperFee({ enabled: true, percent: -0.01 }),
    field: 'percent',
    message: /0 to 0\.05/,
  },
  {
    rule: 'fee as a string',
    call: (c) => c.account.updateDeveloperFee({ enabled: true, percent: '0.01' } as Loose),
    field: 'percent',
    message: /number/,
  },
  {
    rule: 'fee enabled required',
    call: (c) => c.account.updateDeveloperFee({ percent: 0.01 } as Loose),
    field: 'enabled',
    message: /required/,
  },
  // Activity limit.
  {
    rule: 'activity limit 0',
    call: (c) => c.account.listActivity({ limit: 0 }),
    field: 'limit',
    message: /1 to 50/,
  },
  {
    rule: 'activity limit 51',
    call: (c) => c.account.listActivity({ limit: 51 }),
    field: 'limit',
    message: /1 to 50/,
  },
  {
    rule: 'activity limit whole',
    call: (c) => c.account.listActivity({ limit: 2.5 }),
    field: 'limit',
    message: /integer/,
  },
  // OTPs.
  {
    rule: 'mobile otp 5 digits',
    call: (c) => c.users.mobile.confirm('usr_1', { otp: '12345' }),
    field: 'otp',
    message: /exactly 6 digits/,
  },
  {
    rule: 'mobile otp 7 digits',
    call: (c) => c.users.mobile.confirm('usr_1', { otp: '1234567' }),
    field: 'otp',
    message: /exactly 6 digits/,
  },
  {
    rule: 'email otp letters',
    call: (c) => c.users.email.confirm('usr_1', { otp: '12a456' }),
    field: 'otp',
    message: /exactly 6 digits/,
  },
  {
    rule: 'email otp a number',
    call: (c) => c.users.email.confirm('usr_1', { otp: 123456 } as Loose),
    field: 'otp',
    message: /exactly 6 digits/,
  },
  {
    rule: 'aadhaar otp',
    call: (c) => c.kyc.aadhaar.verifyOtp('usr_1', { referenceId: 'r', otp: '1234' }),
    field: 'otp',
    message: /exactly 6 digits/,
  },
  {
    rule: 'aadhaar referenceId required',
    call: (c) => c.kyc.aadhaar.verifyOtp('usr_1', { otp: '123456' } as Loose),
    field: 'referenceId',
    message: /required/,
  },
  {
    rule: 'aadhaar number 12 digits',
    call: (c) => c.kyc.aadhaar.sendOtp('usr_1', { aadhaarNumber: '12341234123' }),
    field: 'aadhaarNumber',
    message: /12 digits/,
  },
  // Bank.
  {
    rule: 'account number 8 digits',
    call: (c) => c.kyc.bank.verify('usr_1', { ...bank, accountNumber: '12345678' }),
    field: 'accountNumber',
    message: /9 to 18 digits/,
  },
  {
    rule: 'account number 19 digits',
    call: (c) => c.kyc.bank.verify('usr_1', { ...bank, accountNumber: '1234567890123456789' }),
    field: 'accountNumber',
    message: /9 to 18 digits/,
  },
  {
    rule: 'account number letters',
    call: (c) => c.kyc.bank.verify('usr_1', { ...bank, accountNumber: '12345678901A' }),
    field: 'accountNumber',
    message: /9 to 18 digits/,
  },
  {
    rule: 'ifsc 10 characters',
    call: (c) => c.kyc.bank.verify('usr_1', { ...bank, ifsc: 'HDFC000123' }),
    field: 'ifsc',
    message: /11 characters/,
  },
  {
    rule: 'ifsc fifth character not 0',
    call: (c) => c.kyc.bank.verify('usr_1', { ...bank, ifsc: 'HDFC1001234' }),
    field: 'ifsc',
    message: /11 characters/,
  },
  {
    rule: 'ifsc lower case',
    call: (c) => c.kyc.bank.verify('usr_1', { ...bank, ifsc: 'hdfc0001234' }),
    field: 'ifsc',
    message: /capital/,
  },
  {
    rule: 'accountHolderName required',
    call: (c) => c.kyc.bank.verify('usr_1', { ...bank, accountHolderName: '' }),
    field: 'accountHolderName',
    message: /required/,
  },
  // UPI.
  ...['asha', 'asha@', '@upi', 'a@1bank', 'as ha@upi'].map((upiId) => ({
    rule: `upi id ${upiId}`,
    call: (c: PayoutClient) => c.kyc.upi.verify('usr_1', { upiId }),
    field: 'upiId',
    message: /username@handle/,
  })),
  // PAN, passport, profile, digilocker, face.
  {
    rule: 'pan shape',
    call: (c) => c.kyc.pan.verify('usr_1', { pan: 'ABCD1234F' }),
    field: 'pan',
    message: /ABCDE1234F/,
  },
  {
    rule: 'passport file required',
    call: (c) => c.kyc.passport.verify('usr_1', {} as Loose),
    field: 'file',
    message: /base64/,
  },
  {
    rule: 'passport file base64',
    call: (c) => c.kyc.passport.verify('usr_1', { file: 'not base64!' }),
    field: 'file',
    message: /base64/,
  },
  {
    rule: 'profile date',
    call: (c) =>
      c.kyc.profile.submit('usr_1', { dateOfBirth: '1990-02-30', nationality: 'IN', city: 'Pune' }),
    field: 'dateOfBirth',
    message: /YYYY-MM-DD/,
  },
  {
    rule: 'profile nationality',
    call: (c) =>
      c.kyc.profile.submit('usr_1', { dateOfBirth: '1990-01-01', nationality: 'IND', city: 'Pune' }),
    field: 'nationality',
    message: /alpha-2/,
  },
  {
    rule: 'profile city required',
    call: (c) => c.kyc.profile.submit('usr_1', { dateOfBirth: '1990-01-01', nationality: 'IN' } as Loose),
    field: 'city',
    message: /required/,
  },
  {
    rule: 'profile pincode',
    call: (c) =>
      c.kyc.profile.submit('usr_1', {
        dateOfBirth: '1990-01-01',
        nationality: 'IN',
        city: 'Pune',
        pincode: '5600',
      }),
    field: 'pincode',
    message: /6 digits/,
  },
  {
    rule: 'digilocker clientId required',
    call: (c) => c.kyc.digilocker.status('usr_1', { clientId: '' }),
    field: 'clientId',
    message: /required/,
  },
  {
    rule: 'digilocker redirectUrl a URL',
    call: (c) => c.kyc.digilocker.init('usr_1', { redirectUrl: 'not a url' }),
    field: 'redirectUrl',
    message: /URL/,
  },
  {
    rule: 'face redirectUrl required',
    call: (c) => c.kyc.face.init('usr_1', {} as Loose),
    field: 'redirectUrl',
    message: /required/,
  },
  // Documents.
  {
    rule: 'document type',
    call: (c) => c.kyc.document.createUploadUrl('usr_1', { ...doc, documentType: 'pan' } as Loose),
    field: 'documentType',
    message: /passport, driving_license, aadhaar, voter_id/,
  },
  {
    rule: 'mime type',
    call: (c) => c.kyc.document.createUploadUrl('usr_1', { ...doc, mimeType: 'image/gif' } as Loose),
    field: 'mimeType',
    message: /image\/jpeg, image\/png, image\/webp, application\/pdf/,
  },
  {
    rule: 'file size above 10 MB',
    call: (c) => c.kyc.document.createUploadUrl('usr_1', { ...doc, fileSize: 10_485_761 }),
    field: 'fileSize',
    message: /10485760/,
  },
  {
    rule: 'file size 0',
    call: (c) => c.kyc.document.createUploadUrl('usr_1', { ...doc, fileSize: 0 }),
    field: 'fileSize',
    message: /from 1/,
  },
  {
    rule: 'file name extension',
    call: (c) => c.kyc.document.createUploadUrl('usr_1', { ...doc, fileName: 'passport' }),
    field: 'fileName',
    message: /extension/,
  },
  {
    rule: 'upload deviceId required',
    call: (c) => c.kyc.document.createUploadUrl('usr_1', { ...doc, deviceId: undefined } as Loose),
    field: 'deviceId',
    message: /non-empty/,
  },
  {
    rule: 'confirm s3Key required',
    call: (c) => c.kyc.document.confirm('usr_1', { ...confirm, s3Key: undefined } as Loose),
    field: 's3Key',
    message: /required/,
  },
  {
    rule: 'confirm file size',
    call: (c) => c.kyc.document.confirm('usr_1', { ...confirm, fileSize: 10_485_761 }),
    field: 'fileSize',
    message: /10485760/,
  },
  {
    rule: 'confirm mime type',
    call: (c) => c.kyc.document.confirm('usr_1', { ...confirm, mimeType: 'text/plain' } as Loose),
    field: 'mimeType',
    message: /one of/,
  },
  // Declaration.
  {
    rule: 'occupation enum',
    call: (c) => c.kyc.declaration.submit('usr_1', { ...declaration, occupation: 'doctor' } as Loose),
    field: 'occupation',
    message: /salaried, self_employed/,
  },
  {
    rule: 'income range enum',
    call: (c) => c.kyc.declaration.submit('usr_1', { ...declaration, incomeRange: '1cr_plus' } as Loose),
    field: 'incomeRange',
    message: /below_5l/,
  },
  {
    rule: 'occupationOther 101 characters',
    call: (c) =>
      c.kyc.declaration.submit('usr_1', {
        ...declaration,
        occupation: 'other',
        occupationOther: 'x'.repeat(101),
      } as Loose),
    field: 'occupationOther',
    message: /at most 100/,
  },
  {
    rule: 'occupationOther needed for other',
    call: (c) => c.kyc.declaration.submit('usr_1', { ...declaration, occupation: 'other' } as Loose),
    field: 'occupationOther',
    message: /required when occupation is other/,
  },
  {
    rule: 'pepDetails 501 characters',
    call: (c) =>
      c.kyc.declaration.submit('usr_1', {
        ...declaration,
        isPep: true,
        pepDetails: 'x'.repeat(501),
      } as Loose),
    field: 'pepDetails',
    message: /at most 500/,
  },
  {
    rule: 'declarationAccepted false',
    call: (c) => c.kyc.declaration.submit('usr_1', { ...declaration, declarationAccepted: false } as Loose),
    field: 'declarationAccepted',
    message: /must be true/,
  },
  {
    rule: 'isPep required',
    call: (c) => c.kyc.declaration.submit('usr_1', { ...declaration, isPep: undefined } as Loose),
    field: 'isPep',
    message: /required/,
  },
  // Webhook list.
  {
    rule: 'webhook status filter',
    call: (c) => c.webhooks.list({ status: 'sent' } as Loose),
    field: 'status',
    message: /pending, delivered, failed/,
  },
  {
    rule: 'webhook limit 101',
    call: (c) => c.webhooks.list({ limit: 101 }),
    field: 'limit',
    message: /1 to 100/,
  },
  { rule: 'webhook page 0', call: (c) => c.webhooks.list({ page: 0 }), field: 'page', message: /from 1/ },
  // Users.
  {
    rule: 'user mobile',
    call: (c) => c.users.create({ mobile: '12345' }),
    field: 'mobile',
    message: /Indian mobile/,
  },
  {
    rule: 'user email',
    call: (c) => c.users.create({ mobile: '9876543210', email: 'nope' }),
    field: 'email',
    message: /email/,
  },
  // Path parameters.
  { rule: 'userId in the path', call: (c) => c.kyc.status(''), field: 'userId', message: /required/ },
  { rule: 'eventId in the path', call: (c) => c.webhooks.retry(''), field: 'eventId', message: /required/ },
];

describe('field rules are enforced before sending', () => {
  it.each(cases)('$rule', async ({ call, field, message }) => {
    const error = await Promise.resolve(call(client)).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ValidationError);
    const issues = (error as ValidationError).issues;
    expect(issues.map((i) => i.path)).toContain(field);
    expect(issues.find((i) => i.path === field)?.message).toMatch(message);
    expect((error as ValidationError).message).toMatch(/Nothing was sent/);
    expect(requests).toHaveLength(0);
  });

  it('lists every bad field at once', async () => {
    const error = await client.transactions.create({} as Loose).catch((e: unknown) => e);
    expect((error as ValidationError).issues.map((i) => i.path).sort()).toEqual([
      'amount',
      'asset',
      'network',
      'userId',
    ]);
    expect(requests).toHaveLength(0);
  });
});
