/**
 * Document upload in two steps (spec 2.9, 4.10), shape A errors. Step 1 issues a presigned URL on the
 * mock's own storage (`${baseUrl}/__uploads/<s3Key>`, 300 s); step 2 confirms a completed upload whose
 * details match. A confirmation without a completed upload answers 400 `UPLOAD_NOT_FOUND`.
 */
import { PRESIGNED_URL_TTL_SECONDS } from '../../../src/schemas/common.js';
import { DocumentConfirmRequest, DocumentUploadUrlRequest } from '../../../src/schemas/kyc/document.js';
import { MockApiError } from '../../engine/errors.js';
import { nextId, randomString } from '../../engine/ids.js';
import { defineModule } from '../../engine/module.js';
import { route } from '../../engine/route.js';
import { kycRecord } from '../../operations/kyc.js';
import { recordStep, recordTransition } from '../../operations/transitions.js';
import { requireUser } from '../shared.js';

/** Where the mock's storage answers, relative to the base URL. */
export const UPLOADS_PATH = '/__uploads';

const uploadUrl = route(
  'POST',
  '/v2/users/:userId/kyc/document/upload-url',
  (ctx) => {
    const user = requireUser(ctx, ctx.params.userId);
    const { documentType, fileName, mimeType, fileSize } = ctx.body;
    // One path segment, so the storage route matches it without wildcards.
    const s3Key = `kyc-${user.id}-${randomString(ctx.state, 12)}-${fileName.replace(/[^A-Za-z0-9._-]/g, '_')}`;
    const expiresAt = new Date(ctx.now + PRESIGNED_URL_TTL_SECONDS * 1000).toISOString();
    ctx.state.kyc.uploads[s3Key] = {
      s3Key,
      userId: user.id,
      documentType,
      fileName,
      mimeType,
      fileSize,
      status: 'issued',
      expiresAt,
    };
    const signature = randomString(ctx.state, 24);
    return {
      data: {
        uploadUrl: `${ctx.runtime.options.baseUrl}${UPLOADS_PATH}/${s3Key}?expires=${Date.parse(expiresAt) / 1000}&signature=${signature}`,
        s3Key,
        expiresIn: PRESIGNED_URL_TTL_SECONDS,
        method: 'PUT',
        headers: { 'Content-Type': mimeType },
      },
      message: 'Upload the file with PUT within 5 minutes, then confirm it',
    };
  },
  { bodySchema: DocumentUploadUrlRequest },
);

const confirm = route(
  'POST',
  '/v2/users/:userId/kyc/document',
  (ctx) => {
    const user = requireUser(ctx, ctx.params.userId);
    const { s3Key, documentType, fileName, fileSize, mimeType } = ctx.body;
    const upload = ctx.state.kyc.uploads[s3Key];
    if (!upload || upload.userId !== user.id || upload.status === 'issued' || !upload.uploadedAt) {
      throw new MockApiError(400, {
        error: 'Bad Request',
        message: `No completed upload for s3Key ${s3Key}: PUT the file to the uploadUrl from POST /kyc/document/upload-url first`,
        code: 'UPLOAD_NOT_FOUND',
      });
    }
    const differs = (
      [
        ['documentType', documentType, upload.documentType],
        ['fileName', fileName, upload.fileName],
        ['fileSize', fileSize, upload.fileSize],
        ['mimeType', mimeType, upload.mimeType],
      ] as const
    ).filter(([, sent, stored]) => sent !== stored);
    if (differs.length > 0) {
      throw new MockApiError(400, {
        error: 'Bad Request',
        message: `The confirmation does not match the upload: ${differs.map(([f, sent, stored]) => `${f} ${sent} (uploaded as ${stored})`).join(', ')}`,
        code: 'VALIDATION_ERROR',
      });
    }
    recordTransition(ctx.state, {
      resource: 'document-upload',
      id: s3Key,
      from: upload.status,
      to: 'confirmed',
      trigger: 'POST /kyc/document',
      userId: user.id,
    });
    upload.status = 'confirmed';
    const record = kycRecord(ctx.state, user.id);
    recordStep(ctx.state, user.id, 'document', 'POST /kyc/document');
    record.document = {
      documentId: nextId(ctx.state, 'doc'),
      documentType,
      fileName,
      s3Key,
      uploadedAt: upload.uploadedAt,
    };
    const { documentId, uploadedAt } = record.document;
    return { data: { documentId, documentType, fileName, uploadedAt }, message: 'Document uploaded' };
  },
  { bodySchema: DocumentConfirmRequest },
);

/** The document routes. */
export const document = defineModule({ name: 'kyc.document', routes: [uploadUrl, confirm] });
