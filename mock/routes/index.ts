/**
 * Every module of the mock. Adding a route file is one line here; a service serves them in this order,
 * then the pipeline's catch-all.
 */
import type { MockModule } from '../engine/module.js';
import { account } from './account.js';
import { aadhaar } from './kyc/aadhaar.js';
import { bank } from './kyc/bank.js';
import { declaration } from './kyc/declaration.js';
import { digilocker } from './kyc/digilocker.js';
import { document } from './kyc/document.js';
import { face } from './kyc/face.js';
import { pan } from './kyc/pan.js';
import { passport } from './kyc/passport.js';
import { profile } from './kyc/profile.js';
import { kycStatus } from './kyc/status.js';
import { storage } from './kyc/storage.js';
import { upi } from './kyc/upi.js';
import { transactions } from './transactions.js';
import { users } from './users.js';
import { email } from './verification/email.js';
import { mobile } from './verification/mobile.js';
import { webhooks } from './webhooks.js';

/** The modules every service serves. */
export const modules: MockModule[] = [
  users,
  mobile,
  email,
  kycStatus,
  digilocker,
  aadhaar,
  pan,
  passport,
  bank,
  upi,
  face,
  document,
  storage,
  declaration,
  profile,
  account,
  transactions,
  webhooks,
];
