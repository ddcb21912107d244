/**
 * KYC (spec 2.7, 3.2, 3.3, 4.3 to 4.11, 8): the onboarding flow from a new user to `verified`, the OTP rules and
 * their timings, the document-locker session and its 600 s, the face check while pending, the upload URL, and
 * the PEP declaration that rejects.
 */
import { objectOf, stringField } from '../../state/records.js';
import type { Scenario, ScenarioTarget } from '../types.js';
import { declaration, newUser, PASSPORT_PDF, passportUpload, REDIRECT, raw } from './support.js';

async function kycState(t: ScenarioTarget, userId: string, when: string): Promise<void> {
  const status = await t.client.kyc.status(userId);
  t.step(`kyc status ${when}`, { status: status.status, level: status.level });
}

/** The Aadhaar name a verified document-locker status carries (spec 4.4), to match the bank's holder against. */
const aadhaarName = (status: unknown) => stringField(objectOf(status)?.aadhaar, 'name');

/** A code that is not `otp`, so a confirm with it is wrong. */
function wrong(otp: string): string {
  return otp === '000000' ? '111111' : '000000';
}

/** The KYC scenarios. */
export const KYC_SCENARIOS: Scenario[] = [
  {
    id: 'kyc.new-user',
    title: "A new user's KYC status, extended status and refresh",
    spec: '2.7, 2.8, 3.3, 4.5',
    tier: 'creates',
    async run(t) {
      const userId = await newUser(t);
      await kycState(t, userId, 'of a new user');
      const extended = await t.client.kyc.extendedStatus(userId);
      t.step('extended status complete', extended.complete);
      const refreshed = await t.client.kyc.refresh(userId);
      t.step('refresh of a new user', refreshed);
    },
  },
  {
    id: 'kyc.refusals',
    title:
      "A new user's KYC refusals: no email, no OTP, no session, a bad PAN, Aadhaar number and passport file",
    spec: '4.3, 4.4, 4.6, 4.9, 7.3, 7.4',
    tier: 'creates',
    async run(t) {
      const userId = await newUser(t);
      const user = `/v2/users/${encodeURIComponent(userId)}`;
      await t.refused(t.client.users.email.sendOtp(userId));
      await t.refused(t.client.users.mobile.confirm(userId, { otp: '123456' }));
      await raw(t, 'POST', `${user}/verify/mobile/confirm`, { otp: '12ab' });
      await raw(t, 'GET', `${user}/kyc/digilocker/status`, undefined, { clientId: t.name('no-session') });
      await raw(t, 'POST', `${user}/kyc/face/verify`, { sessionId: t.name('no-session') });
      await raw(t, 'POST', `${user}/kyc/pan/verify`, { pan: 'ABC123' });
      await raw(t, 'POST', `${user}/kyc/aadhaar/otp/send`, { aadhaarNumber: '1234' });
      await raw(t, 'POST', `${user}/kyc/passport/verify`, {
        file: 'not base64 at all!',
        fileName: 'passport.pdf',
      });
    },
  },
  {
    id: 'kyc.onboarding',
    title: 'Mobile OTP, document-locker consent, bank penny drop, refresh: the user is verified',
    spec: '3.2, 3.3, 4.3, 4.4, 4.5, 4.7, 8',
    tier: 'mock-helpers',
    async run(t) {
      const helpers = t.needHelpers('reading the OTP and completing the document-locker consent');
      const userId = await newUser(t);
      await kycState(t, userId, 'of a new user');
      const sent = await t.client.users.mobile.sendOtp(userId);
      t.step('mobile OTP expiresIn', sent.expiresIn);
      const { otp } = await helpers.otp.read({ userId, channel: 'mobile' });
      await t.refused(t.client.users.mobile.confirm(userId, { otp: wrong(otp) }));
      const confirmed = await t.client.users.mobile.confirm(userId, { otp });
      t.step('mobile verified', confirmed.mobileVerified);
      await t.refused(t.client.users.mobile.confirm(userId, { otp }));
      const session = await t.client.kyc.digilocker.init(userId, {
        redirectUrl: REDIRECT,
        deviceId: t.name('device'),
      });
      t.step('document-locker session expiresIn', session.expiresIn);
      const pending = await t.client.kyc.digilocker.status(userId, { clientId: session.clientId });
      t.step('document-locker status before consent', pending.status);
      await helpers.digilocker.complete({ clientId: session.clientId, outcome: 'approve' });
      const verified = await t.client.kyc.digilocker.status(userId, { clientId: session.clientId });
      t.step('document-locker status after consent', verified.status);
      await kycState(t, userId, 'after the document locker');
      const name = aadhaarName(verified) ?? 'Asha Rao';
      await t.client.kyc.bank.verify(userId, {
        accountNumber: '123456789012',
        ifsc: 'HDFC0001234',
        accountHolderName: name,
        deviceId: t.name('device'),
      });
      const refreshed = await t.client.kyc.refresh(userId);
      t.step('refresh after every requirement', refreshed);
      await kycState(t, userId, 'after refresh');
    },
  },
  {
    id: 'kyc.otp-expiry',
    title: 'An OTP older than 600 s no longer confirms',
    spec: '8 OTP validity, 7.4 Invalid OTP',
    tier: 'mock-helpers',
    async run(t) {
      const helpers = t.needHelpers("reading the OTP and moving the mock's clock past 600 s");
      const userId = await newUser(t);
      await t.client.users.mobile.sendOtp(userId);
      const { otp } = await helpers.otp.read({ userId, channel: 'mobile' });
      await helpers.clock.advance('601s');
      await t.refused(t.client.users.mobile.confirm(userId, { otp }));
    },
  },
  {
    id: 'kyc.otp-send-limit',
    title: 'A fourth OTP within 10 minutes answers 429',
    spec: '8 OTP requests, 7.4 Too Many Requests',
    tier: 'creates',
    async run(t) {
      const userId = await newUser(t);
      await t.atLimit(async () => {
        for (let i = 0; i < 4; i++) await t.refused(t.client.users.mobile.sendOtp(userId));
      });
    },
  },
  {
    id: 'kyc.digilocker-expiry',
    title: 'A document-locker session unanswered for 600 s is EXPIRED',
    spec: '3.2, 4.4, 8',
    tier: 'mock-helpers',
    async run(t) {
      const helpers = t.needHelpers("moving the mock's clock past the 600 s session");
      const userId = await newUser(t);
      const session = await t.client.kyc.digilocker.init(userId, { redirectUrl: REDIRECT });
      await helpers.clock.advance('601s');
      const expired = await t.client.kyc.digilocker.status(userId, { clientId: session.clientId });
      t.step('document-locker status after 601 s', expired.status);
    },
  },
  {
    id: 'kyc.face-pending',
    title: 'A face check not yet done answers verified: false with scores 0',
    spec: '4.9, 8',
    tier: 'creates',
    async run(t) {
      const userId = await newUser(t);
      const session = await t.client.kyc.face.init(userId, {
        redirectUrl: REDIRECT,
        deviceId: t.name('device'),
      });
      t.step('face session expiresIn', session.expiresIn);
      const check = await t.client.kyc.face.verify(userId, { sessionId: session.sessionId });
      t.step('pending face check', {
        verified: check.verified,
        livenessScore: check.livenessScore,
        faceMatchScore: check.faceMatchScore,
        isLive: check.isLive,
        faceMatched: check.faceMatched,
      });
    },
  },
  {
    id: 'kyc.upload-url',
    title: 'A presigned upload URL: 300 s, PUT, and the file type as Content-Type',
    spec: '4.10, 8',
    tier: 'creates',
    async run(t) {
      const userId = await newUser(t);
      const upload = await t.client.kyc.document.createUploadUrl(userId, passportUpload(t.name('device')));
      t.step('upload URL', {
        expiresIn: upload.expiresIn,
        method: upload.method,
        contentType: upload.headers['Content-Type'],
      });
    },
  },
  {
    id: 'kyc.pep-declaration',
    title: 'A PEP declaration rejects the KYC',
    spec: '3.3, 4.11',
    tier: 'creates',
    async run(t) {
      const userId = await newUser(t);
      await t.refused(t.client.kyc.declaration.submit(userId, declaration(true, t.name('device'))));
      await kycState(t, userId, 'after a PEP declaration');
    },
  },
  {
    id: 'kyc.every-step',
    title:
      'Every KYC step answers a success and a refusal: email OTP, Aadhaar OTP, PAN, UPI, profile, passport, document, declaration',
    spec: '2.7, 2.8, 4.3, 4.6, 4.8, 4.9, 4.10, 4.11',
    tier: 'mock-helpers',
    async run(t) {
      const helpers = t.needHelpers('reading the email and Aadhaar OTPs');
      const { userId } = await t.client.users.create({
        mobile: t.newMobile(),
        email: 'asha.rao@example.com',
        deviceId: t.name('device'),
      });
      const user = `/v2/users/${encodeURIComponent(userId)}`;
      await t.client.users.email.sendOtp(userId);
      const email = await helpers.otp.read({ userId, channel: 'email' });
      await t.refused(t.client.users.email.confirm(userId, { otp: wrong(email.otp) }));
      const confirmed = await t.client.users.email.confirm(userId, { otp: email.otp });
      t.step('email verified', confirmed.emailVerified);
      const { referenceId } = await t.client.kyc.aadhaar.sendOtp(userId, { aadhaarNumber: '123412345678' });
      const aadhaar = await helpers.kyc.aadhaarOtp({ referenceId });
      await t.refused(t.client.kyc.aadhaar.verifyOtp(userId, { referenceId, otp: wrong(aadhaar.otp) }));
      const verified = await t.client.kyc.aadhaar.verifyOtp(userId, { referenceId, otp: aadhaar.otp });
      t.step('aadhaar verified', verified.verified);
      t.step('pan verified', (await t.client.kyc.pan.verify(userId, { pan: 'ABCDE1234F' })).verified);
      t.step('upi verified', (await t.client.kyc.upi.verify(userId, { upiId: 'asha@okhdfcbank' })).verified);
      const profile = { nationality: 'GB', city: 'Mumbai' };
      await raw(t, 'POST', `${user}/kyc/profile`, { dateOfBirth: 'yesterday', ...profile });
      await t.client.kyc.profile.submit(userId, { dateOfBirth: '1988-05-04', ...profile });
      const passport = await t.client.kyc.passport.verify(userId, {
        file: PASSPORT_PDF,
        fileName: 'passport.pdf',
      });
      t.step('passport verified', passport.verified);
      const document = {
        documentType: 'passport',
        fileName: 'passport.png',
        mimeType: 'image/png',
        fileSize: 4,
        deviceId: t.name('device'),
      } as const;
      const upload = await t.client.kyc.document.createUploadUrl(userId, document);
      const confirm = { ...document, s3Key: upload.s3Key };
      // Confirming before the upload is refused; after the PUT of the declared bytes it is stored.
      await t.refused(t.client.kyc.document.confirm(userId, confirm));
      await t.fetch(upload.uploadUrl, { method: 'PUT', headers: upload.headers, body: new Uint8Array(4) });
      await t.client.kyc.document.confirm(userId, confirm);
      await t.client.kyc.declaration.submit(userId, declaration(false, t.name('device')));
      await kycState(t, userId, 'after every step');
    },
  },
];
