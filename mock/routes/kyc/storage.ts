/**
 * The mock's object storage: the presigned upload URL of spec 4.10, served outside `/v2` with no API key
 * (as object storage is). It enforces PUT, the signed `Content-Type`, the declared size (at most 10 MB)
 * and the 300 s life on the virtual clock, answering in the plain XML-free text such stores use.
 */
import { defineModule } from '../../engine/module.js';
import { rawRoute } from '../../engine/route.js';
import { storeUpload } from '../../operations/storage.js';
import { UPLOADS_PATH } from './document.js';

/** The storage's route, outside the API pipeline (every method, so a wrong one is refused with 405). */
const storageRoute = rawRoute('ALL', `${UPLOADS_PATH}/:s3Key`, async (request, params, mock, ctx) => {
  const s3Key = params.s3Key ?? '';
  // Empty for GET and HEAD.
  const bytes = (await ctx.bytes()).byteLength;
  const result = storeUpload(mock, s3Key, {
    method: request.method,
    contentType: request.headers.get('content-type') ?? undefined,
    size: bytes,
  });
  if (result.ok) return new Response(null, { status: 200, headers: { ETag: `"${s3Key}"` } });
  return new Response(result.reason, { status: result.status, headers: { 'Content-Type': 'text/plain' } });
});

/** The storage as a module: served by every service beside its API routes. */
export const storage = defineModule({ name: 'kyc.storage', routes: [], rawRoutes: [storageRoute] });
