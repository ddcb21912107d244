/**
 * The mock's object storage (spec 4.10): accepting an upload attempt at a presigned key, shared by the storage
 * route and `helpers.kyc.upload`.
 */

import type { ServiceInternals } from '../engine/internals.js';
import { acceptUpload, type UploadAttempt } from '../machines/document-upload.js';
import { recordTransition } from './transitions.js';

/** Stores an upload attempt for `s3Key` (shared by the HTTP route and `helpers.kyc.upload`). */
export function storeUpload(
  mock: Pick<ServiceInternals, 'state' | 'stream'>,
  s3Key: string,
  put: UploadAttempt,
): { ok: true } | { ok: false; status: number; reason: string } {
  const upload = mock.state.kyc.uploads[s3Key];
  if (!upload) return { ok: false, status: 404, reason: `No upload URL was issued for key ${s3Key}` };
  const outcome = acceptUpload(upload, put, mock.state.clock.now);
  if (!outcome.ok) return outcome;
  mock.state.kyc.uploads[s3Key] = outcome.next;
  recordTransition(mock, {
    resource: 'document-upload',
    id: s3Key,
    from: upload.status,
    to: outcome.next.status,
    trigger: `${put.method} upload`,
    userId: upload.userId,
  });
  return { ok: true };
}
