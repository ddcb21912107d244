// Full KYC onboarding (spec 4.3 to 4.11): mobile and email OTP, the document-locker consent (Aadhaar and PAN),
// the bank penny drop, UPI, face liveness, the extended profile and declaration, then refresh to `verified`.
// The mock's helpers stand in for the user: they read the OTP that was "sent" and complete the consent and
// face pages the user would open.

import { fileURLToPath } from 'node:url';
import { isVerified, kycRequirements, PayoutClient } from 'inr-payouts';
import { createMockService } from 'inr-payouts/mock';
import { mswHandlers, onUnhandled } from 'inr-payouts/mock/msw';
import { setupServer } from 'msw/node';

export async function main() {
  const mock = createMockService();
  const server = setupServer(...mswHandlers(mock));
  server.listen(onUnhandled('error')); // msw 2 and 3: a request no handler serves fails
  try {
    const client = new PayoutClient({
      apiKey: mock.sandboxKey,
      baseUrl: mock.baseUrl,
      clock: mock.clientClock,
    });
    const deviceId = 'device-fingerprint-1';
    const { userId } = await client.users.create({
      mobile: '9876543210',
      email: 'asha@example.com',
      name: 'Asha Rao',
    });

    // 4.3: one OTP per channel; the user types in what they received.
    await client.users.mobile.sendOtp(userId);
    const mobileOtp = mock.helpers.otp.read({ userId, channel: 'mobile' }).otp;
    await client.users.mobile.confirm(userId, { otp: mobileOtp });
    await client.users.email.sendOtp(userId);
    const emailOtp = mock.helpers.otp.read({ userId, channel: 'email' }).otp;
    await client.users.email.confirm(userId, { otp: emailOtp });
    console.log('mobile and email verified');

    // 4.4: send the user to `url`; poll until they have given consent.
    const session = await client.kyc.digilocker.init(userId, {
      redirectUrl: 'https://partner.example/kyc',
      deviceId,
    });
    mock.helpers.digilocker.complete({ clientId: session.clientId, outcome: 'approve' });
    const locker = await client.kyc.digilocker.waitForCompletion(userId, session.clientId);
    console.log(`document locker ${locker.status} for ${locker.aadhaar?.name}`);

    // 4.7: the account holder's name must be at least 70% similar to the Aadhaar name.
    const bank = await client.kyc.bank.verify(userId, {
      accountNumber: '123456789012',
      ifsc: 'HDFC0001234',
      accountHolderName: 'Asha Rao',
      deviceId,
    });
    console.log(`bank ${bank.maskedAccountNumber} verified: ${bank.verified}`);

    // 4.8 and 4.9 are optional.
    const upi = await client.kyc.upi.verify(userId, { upiId: 'asha@okhdfcbank', deviceId });
    console.log(`UPI verified: ${upi.verified} (score ${upi.nameMatchScore})`);
    const face = await client.kyc.face.init(userId, {
      redirectUrl: 'https://partner.example/face',
      deviceId,
    });
    mock.helpers.face.complete({ sessionId: face.sessionId, outcome: 'pass' });
    const faceResult = await client.kyc.face.verify(userId, { sessionId: face.sessionId });
    console.log(`face verified: ${faceResult.verified} (liveness ${faceResult.livenessScore})`);

    // 2.8: the extended profile and the declaration.
    await client.kyc.profile.submit(userId, {
      dateOfBirth: '1990-01-01',
      nationality: 'IN',
      city: 'Bengaluru',
      deviceId,
    });
    await client.kyc.declaration.submit(userId, {
      occupation: 'salaried',
      incomeRange: '10l_to_25l',
      isPep: false,
      declarationAccepted: true,
      deviceId,
    });

    // 3.3: the aggregate settles on refresh.
    const status = await client.kyc.status(userId);
    const { complete, missing } = kycRequirements(status);
    console.log(`requirements met: ${complete} (missing: ${missing.join(', ') || 'none'})`);
    const refreshed = await client.kyc.refresh(userId);
    console.log(
      `KYC ${refreshed.previous.status} -> ${refreshed.current.status}, level ${refreshed.current.level}`,
    );
    const after = await client.kyc.status(userId);
    console.log(`bank block verified: ${isVerified(after.bank)}`);
    return { userId, refreshed, extended: await client.kyc.extendedStatus(userId) };
  } finally {
    server.close();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
