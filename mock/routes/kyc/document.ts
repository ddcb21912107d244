/**
 * Document upload in two steps (spec 2.9, 4.10), shape A errors. Step 1 issues a presigned URL on the
 * mock's own storage (`${baseUrl}/__uploads/<s3Key>`, 300 s); step 2 confirms a completed upload whose
 * details match. A confirmation without a completed upload answers 400 `UPLOAD_NOT_FOUND`.
 */
import { ENDPOINTS } from '../../../src/endpoints/index.js';
import { PRESIGNED_URL_TTL_SECONDS } from '../../../src/schemas/common.js';
import { MockApiError } from '../../engine/errors.js';
import { defineModule } from '../../engine/module.js';
import { route } from '../../engine/route.js';
import { confirmDocument, issueUpload } from '../../operations/kyc/document.js';
import { requireUser } from '../shared.js';

/** Where the mock's storage answers, relative to the base URL. */
export const UPLOADS_PATH = '/__uploads';

const uploadUrl = route(ENDPOINTS['kyc.document.createUploadUrl'], (ctx) => {
  const user = requireUser(ctx, ctx.params.userId);
  const { upload, signature } = issueUpload(ctx.state, user.id, ctx.body);
  const { s3Key, expiresAt, mimeType } = upload;
  return {
    data: {
      uploadUrl: `${ctx.baseUrl}${UPLOADS_PATH}/${s3Key}?expires=${Date.parse(expiresAt) / 1000}&signature=${signature}`,
      s3Key,
      expiresIn: PRESIGNED_URL_TTL_SECONDS,
      method: 'PUT',
      headers: { 'Content-Type': mimeType },
    },
    message: 'Upload the file with PUT within 5 minutes, then confirm it',
  };
});

const confirm = route(ENDPOINTS['kyc.document.confirm'], (ctx) => {
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
  const { documentId, uploadedAt } = confirmDocument(ctx.mock, upload, upload.uploadedAt);
  return { data: { documentId, documentType, fileName, uploadedAt }, message: 'Document uploaded' };
});

/** The document routes. */
export const document = defineModule({ name: 'kyc.document', routes: [uploadUrl, confirm] });
