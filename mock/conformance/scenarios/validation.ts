/**
 * Each endpoint's refusals of a bad request (spec 4, 7): the field rules, unknown resources, and the identifiers
 * and error shapes they answer with. Every request here should be refused, but they are writes a service that
 * drifted could accept, so they run in the `creates` tier, never in `read-only`.
 */
import type { Scenario } from '../types.js';
import { raw } from './support.js';

const NO_USER = '/v2/users/usr_conformance_none';

/** The validation scenarios. */
export const VALIDATION_SCENARIOS: Scenario[] = [
  {
    id: 'validation.users',
    title: 'A user create with a bad mobile or email is refused',
    spec: '2.3, 7.2 (create not shown)',
    tier: 'creates',
    async run(t) {
      await raw(t, 'POST', '/v2/users', { mobile: '12345' });
      await raw(t, 'POST', '/v2/users', { mobile: t.newMobile(), email: 'not-an-email' });
    },
  },
  {
    id: 'validation.unknown-user',
    title: 'Every user endpoint answers an unknown user in its own shape',
    spec: '7.3 USER_NOT_FOUND, 7.4',
    tier: 'creates',
    async run(t) {
      await raw(t, 'GET', `${NO_USER}/kyc/status`);
      await raw(t, 'GET', `${NO_USER}/kyc/extended-status`);
      await raw(t, 'POST', `${NO_USER}/kyc/refresh`);
      await raw(t, 'POST', `${NO_USER}/verify/mobile/send`);
      await raw(t, 'POST', `${NO_USER}/verify/email/send`);
      await raw(t, 'POST', `${NO_USER}/verify/mobile/confirm`, { otp: '123456' });
      await raw(t, 'POST', `${NO_USER}/kyc/digilocker/init`, { redirectUrl: 'https://example.com/done' });
      await raw(t, 'POST', `${NO_USER}/kyc/bank/verify`, {
        accountNumber: '123456789012',
        ifsc: 'HDFC0001234',
        accountHolderName: 'Asha Rao',
      });
      await raw(t, 'POST', `${NO_USER}/kyc/upi/verify`, { upiId: 'asha@upi' });
      await raw(t, 'POST', `${NO_USER}/kyc/face/init`, { redirectUrl: 'https://example.com/done' });
      await raw(t, 'POST', `${NO_USER}/kyc/declaration`, {
        occupation: 'salaried',
        incomeRange: 'below_5l',
        isPep: false,
        declarationAccepted: true,
      });
    },
  },
  {
    id: 'validation.kyc-fields',
    title: 'KYC field rules: account number, IFSC, UPI ID, file size and type, declaration',
    spec: '4.7, 4.8, 4.10, 4.11, 8',
    tier: 'creates',
    async run(t) {
      await raw(t, 'POST', `${NO_USER}/kyc/bank/verify`, {
        accountNumber: '12ab',
        ifsc: 'HDFC',
        accountHolderName: 'Asha Rao',
      });
      await raw(t, 'POST', `${NO_USER}/kyc/upi/verify`, { upiId: 'no-at-sign' });
      await raw(t, 'POST', `${NO_USER}/kyc/document/upload-url`, {
        documentType: 'passport',
        fileName: 'passport.gif',
        mimeType: 'image/gif',
        fileSize: 10_485_761,
        deviceId: t.name('device'),
      });
      await raw(t, 'POST', `${NO_USER}/kyc/declaration`, {
        occupation: 'astronaut',
        incomeRange: 'below_5l',
        isPep: false,
        declarationAccepted: false,
      });
    },
  },
  {
    id: 'validation.transactions',
    title: 'Transaction creates with bad fields, and unknown transactions and events',
    spec: '4.2, 7.3, 8',
    tier: 'creates',
    async run(t) {
      const base = { userId: 'usr_conformance_none', asset: 'USDC', network: 'polygon' };
      await raw(t, 'POST', '/v2/transactions', { ...base, amount: 'ten', partnerReference: t.name('order') });
      await raw(t, 'POST', '/v2/transactions', {
        ...base,
        asset: 'DAI',
        amount: '100',
        partnerReference: t.name('order'),
      });
      await raw(t, 'POST', '/v2/transactions/prefunded', {
        ...base,
        network: 'tron',
        amount: '100',
        partnerReference: t.name('order'),
      });
      await raw(t, 'GET', `/v2/transactions/${encodeURIComponent(t.name('missing'))}`);
      await raw(t, 'POST', '/v2/webhooks/evt_conformance_none/retry');
    },
  },
];
