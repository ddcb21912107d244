/**
 * The request rules the shared schemas write as refinements (one `z.refine` per rule keeps the client bundle
 * small, see `src/internal/checks.ts`), restated as JSON Schema keywords for the OpenAPI document. Only the
 * generator imports this module, so the client bundle does not grow. Keyed by operation id, then by the
 * field's path in the body or query (`''` for the object itself); `test/mock/openapi/rules.test.ts` checks that
 * every refinement of every request schema has its rule here and that each rule agrees with the schema at its
 * boundaries.
 */
import {
  MAX_ACTIVITY_LIMIT,
  MAX_AMOUNT_USD,
  MAX_DEVELOPER_FEE_PERCENT,
  MAX_DOCUMENT_BYTES,
  MAX_OCCUPATION_OTHER_LENGTH,
  MAX_PEP_DETAILS_LENGTH,
  MAX_WEBHOOK_LIMIT,
  MIN_AMOUNT_USD,
  MIN_DEVELOPER_FEE_PERCENT,
} from '../../src/schemas/limits.js';

/** JSON Schema keywords (and `x-` extensions) merged into the generated schema at a field. */
export type Rule = Record<string, unknown>;

/** Rules of one operation's body and query. */
export interface OperationRules {
  body?: Record<string, Rule>;
  query?: Record<string, Rule>;
}

const nonEmpty: Rule = { minLength: 1 };
const absoluteUrl: Rule = { format: 'uri' };
const amount: Rule = {
  'x-decimal-minimum': MIN_AMOUNT_USD,
  'x-decimal-maximum': MAX_AMOUNT_USD,
  description: `USD as a decimal string, ${MIN_AMOUNT_USD} to ${MAX_AMOUNT_USD}`,
};
const fileSize: Rule = { type: 'integer', minimum: 1, maximum: MAX_DOCUMENT_BYTES };
const create = {
  body: { userId: nonEmpty, amount, partnerReference: { minLength: 1, maxLength: 255 } },
};

/** The rules, by operation id. */
export const REQUEST_RULES: Record<string, OperationRules> = {
  'users.create': { body: { name: nonEmpty, deviceId: nonEmpty } },
  'kyc.digilocker.init': { body: { redirectUrl: absoluteUrl, deviceId: nonEmpty } },
  'kyc.digilocker.status': { query: { clientId: nonEmpty } },
  'kyc.aadhaar.sendOtp': { body: { deviceId: nonEmpty } },
  'kyc.aadhaar.verifyOtp': { body: { referenceId: nonEmpty, deviceId: nonEmpty } },
  'kyc.pan.verify': { body: { deviceId: nonEmpty } },
  'kyc.passport.verify': { body: { file: nonEmpty, fileName: nonEmpty, deviceId: nonEmpty } },
  'kyc.bank.verify': { body: { accountHolderName: nonEmpty, deviceId: nonEmpty } },
  'kyc.upi.verify': { body: { deviceId: nonEmpty } },
  'kyc.face.init': { body: { redirectUrl: absoluteUrl, deviceId: nonEmpty } },
  'kyc.face.verify': { body: { sessionId: nonEmpty } },
  'kyc.document.createUploadUrl': { body: { fileSize, deviceId: nonEmpty } },
  'kyc.document.confirm': { body: { s3Key: nonEmpty, fileSize, deviceId: nonEmpty } },
  'kyc.declaration.submit': {
    body: {
      // occupationOther must say something when the occupation is `other`.
      '': {
        if: { properties: { occupation: { const: 'other' } }, required: ['occupation'] },
        // biome-ignore lint/suspicious/noThenProperty: JSON Schema's `then` keyword.
        then: { required: ['occupationOther'], properties: { occupationOther: { pattern: '\\S' } } },
      },
      occupationOther: { maxLength: MAX_OCCUPATION_OTHER_LENGTH },
      pepDetails: { maxLength: MAX_PEP_DETAILS_LENGTH },
      deviceId: nonEmpty,
    },
  },
  'kyc.profile.submit': {
    body: {
      dateOfBirth: { format: 'date' },
      city: nonEmpty,
      addressLine: nonEmpty,
      state: nonEmpty,
      deviceId: nonEmpty,
    },
  },
  'account.updateDeveloperFee': {
    body: { percent: { minimum: MIN_DEVELOPER_FEE_PERCENT, maximum: MAX_DEVELOPER_FEE_PERCENT } },
  },
  'account.listActivity': { query: { limit: { type: 'integer', minimum: 1, maximum: MAX_ACTIVITY_LIMIT } } },
  'transactions.create': create,
  'transactions.createPrefunded': create,
  'webhooks.list': {
    query: {
      page: { type: 'integer', minimum: 1 },
      limit: { type: 'integer', minimum: 1, maximum: MAX_WEBHOOK_LIMIT },
    },
  },
};
