/**
 * Document upload (spec 2.9, 4.10): issuing a presigned upload on the mock's storage (300 s), and confirming a
 * completed upload as the user's document. Storing the file is `storeUpload` (operations/storage.ts).
 */
import { PRESIGNED_URL_TTL_SECONDS } from '../../../src/schemas/common.js';
import type { DocumentUploadUrlRequest } from '../../../src/schemas/kyc/document.js';
import { nextId, randomString } from '../../engine/ids.js';
import type { ServiceInternals } from '../../engine/internals.js';
import type { DocumentStep, UploadRecord } from '../../state/kyc.js';
import type { MockState } from '../../state/mock-state.js';
import { kycRecord } from '../kyc.js';
import { recordStep, recordTransition } from '../transitions.js';

/** `POST /kyc/document/upload-url`: a new upload at a fresh key, and the signature of its presigned URL. */
export function issueUpload(
  state: MockState,
  userId: string,
  file: Pick<DocumentUploadUrlRequest, 'documentType' | 'fileName' | 'mimeType' | 'fileSize'>,
): { upload: UploadRecord; signature: string } {
  const { documentType, fileName, mimeType, fileSize } = file;
  // One path segment, so the storage route matches it without wildcards.
  const s3Key = `kyc-${userId}-${randomString(state, 12)}-${fileName.replace(/[^A-Za-z0-9._-]/g, '_')}`;
  const upload: UploadRecord = {
    s3Key,
    userId,
    documentType,
    fileName,
    mimeType,
    fileSize,
    status: 'issued',
    expiresAt: new Date(state.clock.now + PRESIGNED_URL_TTL_SECONDS * 1000).toISOString(),
  };
  state.kyc.uploads[s3Key] = upload;
  return { upload, signature: randomString(state, 24) };
}

/**
 * `POST /kyc/document` for a completed upload whose details match: confirms it as the user's document, which
 * was uploaded at `uploadedAt` (the upload's own time, which the caller has checked is there).
 */
export function confirmDocument(
  mock: ServiceInternals,
  upload: UploadRecord,
  uploadedAt: string,
): DocumentStep {
  const { state } = mock;
  const { s3Key, userId, documentType, fileName } = upload;
  const trigger = 'POST /kyc/document';
  recordTransition(mock, {
    resource: 'document-upload',
    id: s3Key,
    from: upload.status,
    to: 'confirmed',
    trigger,
    userId,
  });
  upload.status = 'confirmed';
  const record = kycRecord(state, userId);
  recordStep(mock, userId, 'document', trigger);
  record.document = { documentId: nextId(state, 'doc'), documentType, fileName, s3Key, uploadedAt };
  return record.document;
}
