// Every wire schema of the partner interface, with its inferred type of the same name. One schema serves
// the client (request validation, response typing), the mock and the docs.
export * from './account.js';
export * from './common.js';
export * from './confirmations.js';
export * from './kyc/aadhaar.js';
export * from './kyc/bank.js';
export * from './kyc/declaration.js';
export * from './kyc/digilocker.js';
export * from './kyc/document.js';
export * from './kyc/face.js';
export * from './kyc/pan.js';
export * from './kyc/passport.js';
export * from './kyc/profile.js';
export * from './kyc/status.js';
export * from './kyc/upi.js';
export * from './transactions.js';
export * from './users.js';
export * from './verification/email.js';
export * from './verification/mobile.js';
export * from './webhooks.js';
