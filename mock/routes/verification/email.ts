/**
 * Email OTP: `POST /v2/users/{userId}/verify/email/send` (spec 4.3) and `/confirm` (assumed, mirroring the
 * mobile confirm). The user needs an email on file (`No Email`).
 */
import { defineModule } from '../../engine/module.js';
import { maskEmail } from '../shared.js';
import { otpRoutes } from './otp-routes.js';

/** The email OTP routes. */
export const email = defineModule({
  name: 'verification.email',
  routes: otpRoutes({
    channel: 'email',
    label: 'Email',
    target: (user) => user.email,
    sentData: (target, expiresIn) => ({ maskedEmail: maskEmail(target), expiresIn }),
    isVerified: (user) => user.emailVerified,
    verifiedData: (at) => ({ emailVerified: true, verifiedAt: at }),
  }),
});
