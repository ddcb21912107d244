/** Document upload in two steps (spec 2.9, 4.10): a presigned upload URL, then the confirmation. */
import * as z from 'zod/mini';
import { oneOf, stringMatching, wholeNumberBetween } from '../../internal/checks.js';
import {
  DeviceId,
  MAX_DOCUMENT_BYTES,
  openEnum,
  requiredString,
  responseObject,
  Timestamp,
} from '../common.js';

/** Document types (spec 4.10). */
export const documentTypes = ['passport', 'driving_license', 'aadhaar', 'voter_id'] as const;
/** Accepted MIME types (spec 4.10). */
export const mimeTypes = ['image/jpeg', 'image/png', 'image/webp', 'application/pdf'] as const;

/** Request field: `documentType`. */
export const DocumentType = oneOf('documentType', documentTypes);
/** A document type. */
export type DocumentType = z.infer<typeof DocumentType>;
/** Request field: `mimeType`. */
export const MimeType = oneOf('mimeType', mimeTypes);
/** A document MIME type. */
export type MimeType = z.infer<typeof MimeType>;

const FILE_SIZE_RULE = `fileSize must be a whole number of bytes from 1 to ${MAX_DOCUMENT_BYTES} (10 MB)`;
const FILE_NAME_RULE = 'fileName must be the file name with its extension, like passport.pdf';

/** Request field: `fileSize`, whole bytes, at most 10,485,760. */
export const FileSize = wholeNumberBetween(1, MAX_DOCUMENT_BYTES, FILE_SIZE_RULE);
/** Request field: `fileName`, with an extension. */
export const FileName = stringMatching(/^[^/\\]*[^/\\.]\.[A-Za-z0-9]{1,10}$/, FILE_NAME_RULE);

/** `POST /v2/users/{userId}/kyc/document/upload-url` body; every field is required. */
export const DocumentUploadUrlRequest = z.object({
  documentType: DocumentType,
  fileName: FileName,
  mimeType: MimeType,
  fileSize: FileSize,
  deviceId: DeviceId,
});
/** Upload URL body. */
export type DocumentUploadUrlRequest = z.infer<typeof DocumentUploadUrlRequest>;

/**
 * `POST /v2/users/{userId}/kyc/document/upload-url` data: PUT the raw bytes to `uploadUrl` with `method`
 * and `headers` within `expiresIn` (300) seconds.
 */
export const DocumentUploadUrl = responseObject({
  uploadUrl: z.string(),
  s3Key: z.string(),
  expiresIn: z.number(),
  method: openEnum(['PUT'] as const),
  // Every header value a string; z.catchall rather than z.record keeps zod's record code out of the bundle.
  headers: z.catchall(z.object({}), z.string()),
});
/** A presigned upload URL. */
export type DocumentUploadUrl = z.infer<typeof DocumentUploadUrl>;

/** `POST /v2/users/{userId}/kyc/document` body: confirms the upload; every field is required. */
export const DocumentConfirmRequest = z.object({
  documentType: DocumentType,
  s3Key: requiredString('s3Key'),
  fileName: FileName,
  fileSize: FileSize,
  mimeType: MimeType,
  deviceId: DeviceId,
});
/** Upload confirmation body. */
export type DocumentConfirmRequest = z.infer<typeof DocumentConfirmRequest>;

/** `POST /v2/users/{userId}/kyc/document` data: the document record (spec 2.9). */
export const DocumentRecord = responseObject({
  documentId: z.string(),
  documentType: openEnum(documentTypes),
  fileName: z.string(),
  uploadedAt: Timestamp,
});
/** A stored KYC document. */
export type DocumentRecord = z.infer<typeof DocumentRecord>;
