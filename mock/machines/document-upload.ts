/**
 * The presigned upload (spec 4.10) as a pure function: an issued URL accepts one PUT with the declared
 * `Content-Type` and size within 300 s; confirmation needs a completed upload with the same details.
 */
import { MAX_DOCUMENT_BYTES } from '../../src/schemas/common.js';
import type { UploadRecord } from '../state/kyc.js';

/** An upload attempt as the storage sees it. */
export interface UploadAttempt {
  method: string;
  contentType: string | undefined;
  size: number;
}

/** Accepted (the next record) or refused with the HTTP status object storage answers and a reason. */
export type UploadOutcome = { ok: true; next: UploadRecord } | { ok: false; status: number; reason: string };

/** Applies an upload attempt at `now` (epoch ms). */
export function acceptUpload(upload: UploadRecord, put: UploadAttempt, now: number): UploadOutcome {
  if (put.method !== 'PUT') {
    return { ok: false, status: 405, reason: `The upload URL takes PUT, not ${put.method}` };
  }
  if (now >= Date.parse(upload.expiresAt)) {
    return {
      ok: false,
      status: 403,
      reason: 'The upload URL expired (300 s); request a new one with POST /kyc/document/upload-url',
    };
  }
  if (upload.status !== 'issued') {
    return { ok: false, status: 409, reason: `This upload URL was already used (${upload.status})` };
  }
  if (put.contentType !== upload.mimeType) {
    return {
      ok: false,
      status: 403,
      reason: `Content-Type must be ${upload.mimeType} as signed, got ${put.contentType ?? 'none'}`,
    };
  }
  if (put.size > MAX_DOCUMENT_BYTES || put.size !== upload.fileSize) {
    return {
      ok: false,
      status: 400,
      reason: `The body must be the declared ${upload.fileSize} bytes (at most ${MAX_DOCUMENT_BYTES}), got ${put.size}`,
    };
  }
  return { ok: true, next: { ...upload, status: 'uploaded', uploadedAt: new Date(now).toISOString() } };
}
