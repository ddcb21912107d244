/** Mobile OTP: `POST /v2/users/{userId}/verify/mobile/send` and `/confirm` (spec 4.3). */
import { defineModule } from '../../engine/module.js';
import { maskMobile } from '../shared.js';
import { otpRoutes } from './otp-routes.js';

/** The mobile OTP routes. */
export const mobile = defineModule({
  name: 'verification.mobile',
  routes: otpRoutes({
    channel: 'mobile',
    label: 'Mobile number',
    target: (user) => user.mobile,
    sentData: (target, expiresIn) => ({ maskedMobile: maskMobile(target), expiresIn }),
    isVerified: (user) => user.mobileVerified,
    verifiedData: (at) => ({ mobileVerified: true, verifiedAt: at }),
  }),
});
