/**
 * Document upload in two steps (spec 2.9, 4.10): a presigned upload URL, then the confirmation.
 */
import * as z from 'zod/mini';
import { numberBetween, oneOf, wholeNumber } from '../../internal/checks.js';
import { DeviceId, MAX_DOCUMENT_BYTES, openEnum, requiredString, Timestamp } from '../common.js';

/**
 * Document types (spec 4.10).
 * @example
 * ```ts
 * import { documentTypes } from 'inr-payouts';
 * documentTypes.includes('voter_id') // true
 * ```
 */
export const documentTypes = ['passport', 'driving_license', 'aadhaar', 'voter_id'] as const;
/**
 * Accepted MIME types (spec 4.10).
 * @example
 * ```ts
 * import { mimeTypes } from 'inr-payouts';
 * mimeTypes.includes('application/pdf') // true
 * ```
 */
export const mimeTypes = ['image/jpeg', 'image/png', 'image/webp', 'application/pdf'] as const;

/**
 * Request field: `documentType`.
 * @example
 * ```ts
 * import { DocumentType } from 'inr-payouts';
 * DocumentType.parse('passport')
 * ```
 */
export const DocumentType = oneOf('documentType', documentTypes);
/**
 * A document type.
 * @example
 * ```ts
 * import { DocumentType } from 'inr-payouts';
 * const t: DocumentType = 'driving_license';
 * ```
 */
export type DocumentType = z.infer<typeof DocumentType>;
/**
 * Request field: `mimeType`.
 * @example
 * ```ts
 * import { MimeType } from 'inr-payouts';
 * MimeType.parse('image/png')
 * ```
 */
export const MimeType = oneOf('mimeType', mimeTypes);
/**
 * A document MIME type.
 * @example
 * ```ts
 * import { MimeType } from 'inr-payouts';
 * const m: MimeType = 'application/pdf';
 * ```
 */
export type MimeType = z.infer<typeof MimeType>;

const FILE_SIZE_RULE = `fileSize must be a whole number of bytes from 1 to ${MAX_DOCUMENT_BYTES} (10 MB)`;
const FILE_NAME_RULE = 'fileName must be the file name with its extension, like passport.pdf';

/**
 * Request field: `fileSize`, whole bytes, at most 10,485,760.
 * @example
 * ```ts
 * import { FileSize } from 'inr-payouts';
 * FileSize.parse(204800)
 * ```
 */
export const FileSize = z
  .number({ error: FILE_SIZE_RULE })
  .check(wholeNumber(FILE_SIZE_RULE), numberBetween(1, MAX_DOCUMENT_BYTES, FILE_SIZE_RULE));
/**
 * Request field: `fileName`, with an extension.
 * @example
 * ```ts
 * import { FileName } from 'inr-payouts';
 * FileName.parse('licence.jpg')
 * ```
 */
export const FileName = z
  .string({ error: FILE_NAME_RULE })
  .check(z.regex(/^[^/\\]*[^/\\.]\.[A-Za-z0-9]{1,10}$/, { error: FILE_NAME_RULE }));

/**
 * `POST /v2/users/{userId}/kyc/document/upload-url` body; every field is required.
 * @example
 * ```ts
 * import { DocumentUploadUrlRequest } from 'inr-payouts';
 * DocumentUploadUrlRequest.parse({ documentType: 'passport', fileName: 'passport.pdf', mimeType: 'application/pdf', fileSize: 204800, deviceId: 'device-fp-1' })
 * ```
 */
export const DocumentUploadUrlRequest = z.object({
  documentType: DocumentType,
  fileName: FileName,
  mimeType: MimeType,
  fileSize: FileSize,
  deviceId: DeviceId,
});
/**
 * Upload URL body.
 * @example
 * ```ts
 * import { DocumentUploadUrlRequest } from 'inr-payouts';
 * const p: DocumentUploadUrlRequest = { documentType: 'passport', fileName: 'p.pdf', mimeType: 'application/pdf', fileSize: 1024, deviceId: 'd1' };
 * ```
 */
export type DocumentUploadUrlRequest = z.infer<typeof DocumentUploadUrlRequest>;

/**
 * `POST /v2/users/{userId}/kyc/document/upload-url` data: PUT the raw bytes to `uploadUrl` with `method`
 * and `headers` within `expiresIn` (300) seconds.
 * @example
 * ```ts
 * import { DocumentUploadUrl } from 'inr-payouts';
 * DocumentUploadUrl.parse({ uploadUrl: 'https://bucket.test/k?sig=1', s3Key: 'kyc/usr_1/k', expiresIn: 300, method: 'PUT', headers: { 'Content-Type': 'application/pdf' } })
 * ```
 */
export const DocumentUploadUrl = z.looseObject({
  uploadUrl: z.string(),
  s3Key: z.string(),
  expiresIn: z.number(),
  method: openEnum(['PUT'] as const),
  // Every header value a string; z.catchall rather than z.record keeps zod's record code out of the bundle.
  headers: z.catchall(z.object({}), z.string()),
});
/**
 * A presigned upload URL.
 * @example
 * ```ts
 * const { userId } = await client.users.create({ mobile: '9876543210', name: 'Asha Rao', email: 'asha@example.com' });
 * const { uploadUrl, s3Key } = await client.kyc.document.createUploadUrl(userId, { documentType: 'passport', fileName: 'p.pdf', mimeType: 'application/pdf', fileSize: 1024, deviceId: 'd1' });
 * ```
 */
export type DocumentUploadUrl = z.infer<typeof DocumentUploadUrl>;

/**
 * `POST /v2/users/{userId}/kyc/document` body: confirms the upload; every field is required.
 * @example
 * ```ts
 * import { DocumentConfirmRequest } from 'inr-payouts';
 * DocumentConfirmRequest.parse({ documentType: 'passport', s3Key: 'kyc/usr_1/k', fileName: 'passport.pdf', fileSize: 204800, mimeType: 'application/pdf', deviceId: 'device-fp-1' })
 * ```
 */
export const DocumentConfirmRequest = z.object({
  documentType: DocumentType,
  s3Key: requiredString('s3Key'),
  fileName: FileName,
  fileSize: FileSize,
  mimeType: MimeType,
  deviceId: DeviceId,
});
/**
 * Upload confirmation body.
 * @example
 * ```ts
 * import { DocumentConfirmRequest } from 'inr-payouts';
 * const s3Key = 'kyc-usr_1-passport.pdf'; // from the upload-url answer
 * const p: DocumentConfirmRequest = { documentType: 'passport', s3Key, fileName: 'p.pdf', fileSize: 1024, mimeType: 'application/pdf', deviceId: 'd1' };
 * ```
 */
export type DocumentConfirmRequest = z.infer<typeof DocumentConfirmRequest>;

/**
 * `POST /v2/users/{userId}/kyc/document` data: the document record (spec 2.9).
 * @example
 * ```ts
 * import { DocumentRecord } from 'inr-payouts';
 * DocumentRecord.parse({ documentId: 'doc_1', documentType: 'passport', fileName: 'passport.pdf', uploadedAt: '2024-01-15T10:40:00Z' })
 * ```
 */
export const DocumentRecord = z.looseObject({
  documentId: z.string(),
  documentType: openEnum(documentTypes),
  fileName: z.string(),
  uploadedAt: Timestamp,
});
/**
 * A stored KYC document.
 * @example
 * ```ts
 * const { userId } = await client.users.create({ mobile: '9876543210', name: 'Asha Rao', email: 'asha@example.com' });
 * const file = { documentType: 'passport', fileName: 'p.pdf', mimeType: 'application/pdf', fileSize: 1024, deviceId: 'd1' } as const;
 * const { s3Key } = await client.kyc.document.createUploadUrl(userId, file);
 * mock.helpers.kyc.upload({ s3Key, contentType: file.mimeType, size: file.fileSize }); // the PUT of the bytes
 * const { documentId } = await client.kyc.document.confirm(userId, { ...file, s3Key });
 * ```
 */
export type DocumentRecord = z.infer<typeof DocumentRecord>;
