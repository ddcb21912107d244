/**
 * A valid request for each operation the probes change one field of: built from the endpoint table's input
 * types, so a request the table no longer accepts fails to compile. Every user-scoped request names a user that
 * does not exist (`usr_conformance_none`, as the validation scenarios do): a request is checked before the
 * user is looked up (docs/assumptions.md, "Request validation"), so a valid case answers `USER_NOT_FOUND` and an
 * invalid one its validation error, and neither changes anything on the target.
 */
import type * as z from 'zod/mini';
import type { ENDPOINTS, OperationId } from '../../../src/endpoints/index.js';
import { order, PASSPORT_PDF, passportUpload, REDIRECT } from '../scenarios/support.js';

/** A user no service has: a valid request for it is refused as not found, changing nothing. */
export const NO_USER = 'usr_conformance_none';

/** What a base request may draw from its side of the run: a fresh mobile number, a name with the run's prefix. */
export interface BaseContext {
  mobile(): string;
  name(what: string): string;
}

type Input<Id extends OperationId> = (typeof ENDPOINTS)[Id] extends { body: infer B extends z.ZodMiniType }
  ? z.input<B>
  : (typeof ENDPOINTS)[Id] extends { query: infer Q extends z.ZodMiniType }
    ? z.input<Q>
    : never;

type Bases = { [Id in OperationId]?: (c: BaseContext) => Input<Id> };

/** A valid body or query per operation ID. */
export const BASES: Bases = {
  'users.create': (c) => ({
    mobile: c.mobile(),
    email: 'asha.rao@example.com',
    name: 'Asha Rao',
    deviceId: c.name('device'),
  }),
  'users.mobile.confirm': () => ({ otp: '123456' }),
  'users.email.confirm': () => ({ otp: '123456' }),
  'kyc.digilocker.init': (c) => ({ redirectUrl: REDIRECT, deviceId: c.name('device') }),
  'kyc.digilocker.status': () => ({ clientId: 'dl_conformance_none' }),
  'kyc.aadhaar.sendOtp': (c) => ({ aadhaarNumber: '123412345678', deviceId: c.name('device') }),
  'kyc.aadhaar.verifyOtp': () => ({ referenceId: 'ref_conformance_none', otp: '123456' }),
  'kyc.pan.verify': () => ({ pan: 'ABCDE1234F' }),
  'kyc.passport.verify': () => ({ file: PASSPORT_PDF, fileName: 'passport.pdf' }),
  'kyc.bank.verify': () => ({
    accountNumber: '123456789012',
    ifsc: 'HDFC0001234',
    accountHolderName: 'Asha Rao',
  }),
  'kyc.upi.verify': () => ({ upiId: 'asha@okhdfcbank' }),
  'kyc.face.init': (c) => ({ redirectUrl: REDIRECT, deviceId: c.name('device') }),
  'kyc.face.verify': () => ({ sessionId: 'face_conformance_none' }),
  'kyc.document.createUploadUrl': (c) => passportUpload(c.name('device')),
  'kyc.document.confirm': (c) => ({ ...passportUpload(c.name('device')), s3Key: 'conformance/none.pdf' }),
  'kyc.declaration.submit': () => ({
    occupation: 'salaried',
    incomeRange: '5l_to_10l',
    isPep: false,
    declarationAccepted: true,
  }),
  'kyc.profile.submit': () => ({
    dateOfBirth: '1988-05-04',
    nationality: 'IN',
    city: 'Mumbai',
    pincode: '400001',
  }),
  'account.updateDeveloperFee': () => ({ enabled: true, percent: 0.01 }),
  'account.listActivity': () => ({ limit: 10 }),
  'transactions.create': (c) => order(c, NO_USER),
  'transactions.createPrefunded': (c) => order(c, NO_USER),
  'webhooks.list': () => ({ page: 1, limit: 20, status: 'delivered' }),
};

/** The base of `operationId` as a plain record, or undefined when the probes have none for it. */
export function baseOf(operationId: string, c: BaseContext): Record<string, unknown> | undefined {
  if (!Object.hasOwn(BASES, operationId)) return undefined;
  const make = BASES[operationId as OperationId] as ((c: BaseContext) => object) | undefined;
  return make ? { ...make(c) } : undefined;
}
