import type { ApiPromise } from '../../core/api-promise.js';
import { APIUserAbortError, PayoutError, ValidationError } from '../../core/errors.js';
import type { Transport } from '../../core/transport.js';
import type { RequestOptions } from '../../core/types.js';
import type {
  DocumentConfirmRequest,
  DocumentRecord,
  DocumentUploadUrl,
  DocumentUploadUrlRequest,
} from '../../schemas/kyc/document.js';
import { callForUser } from '../shared.js';

/**
 * The PUT to the presigned URL failed or outlived the URL; nothing was confirmed, so upload again.
 * @example
 * ```ts
 * import { DocumentUploadError } from 'inr-payouts';
 * const error = new DocumentUploadError('the storage answered 403', 403);
 * console.log(error.status); // 403
 * ```
 */
export class DocumentUploadError extends PayoutError {
  override name = 'DocumentUploadError';
  /** The storage's HTTP status, when it answered. */
  readonly status?: number;
  constructor(reason: string, status?: number, options?: { cause?: unknown }) {
    super(`Document upload failed: ${reason}. Nothing was confirmed; upload again for a fresh URL.`, options);
    this.status = status;
  }
}

/** What `kyc.document.upload` needs: the document's description and its bytes (the size is taken from them). */
export interface DocumentUploadParams extends Omit<DocumentUploadUrlRequest, 'fileSize'> {
  file: Blob | ArrayBuffer | Uint8Array;
}

function sizeOf(file: unknown): number | undefined {
  if (typeof Blob !== 'undefined' && file instanceof Blob) return file.size;
  if (file instanceof ArrayBuffer || file instanceof Uint8Array) return file.byteLength;
  return undefined;
}

/**
 * Document upload (spec 4.10): a presigned URL, the PUT of the bytes, the confirmation; `upload` does all three.
 * @example
 * ```ts
 * const { userId } = await client.users.create({ mobile: '9876543210', name: 'Asha Rao' });
 * const file = new TextEncoder().encode('%PDF-1.7 passport scan'); // the bytes the user picked
 * const record = await client.kyc.document.upload(userId, { documentType: 'passport', fileName: 'passport.pdf', mimeType: 'application/pdf', deviceId: 'device-fp-1', file });
 * ```
 */
export class DocumentResource {
  constructor(
    private readonly transport: Transport,
    private readonly fetchImpl?: typeof fetch,
  ) {}

  /**
   * `POST /v2/users/{userId}/kyc/document/upload-url`: step 1, a presigned URL valid 300 s; type, MIME type and
   * size (at most 10,485,760 bytes) checked before sending.
   * @example
   * ```ts
   * const { userId } = await client.users.create({ mobile: '9876543210', name: 'Asha Rao' });
   * const { uploadUrl, method, headers, s3Key } = await client.kyc.document.createUploadUrl(userId, { documentType: 'passport', fileName: 'p.pdf', mimeType: 'application/pdf', fileSize: 2048, deviceId: 'device-fp-1' });
   * ```
   */
  createUploadUrl(
    userId: string,
    params: DocumentUploadUrlRequest,
    options?: RequestOptions,
  ): ApiPromise<DocumentUploadUrl> {
    return callForUser(this.transport, 'kyc.document.createUploadUrl', userId, params, options);
  }

  /**
   * `POST /v2/users/{userId}/kyc/document`: step 2, confirms the upload with the `s3Key` of step 1.
   * @example
   * ```ts
   * const { userId } = await client.users.create({ mobile: '9876543210', name: 'Asha Rao' });
   * const file = { documentType: 'passport', fileName: 'p.pdf', mimeType: 'application/pdf', fileSize: 2048, deviceId: 'device-fp-1' } as const;
   * const { s3Key } = await client.kyc.document.createUploadUrl(userId, file);
   * mock.helpers.kyc.upload({ s3Key, contentType: file.mimeType, size: file.fileSize }); // the PUT of the bytes
   * const { documentId } = await client.kyc.document.confirm(userId, { ...file, s3Key });
   * ```
   */
  confirm(
    userId: string,
    params: DocumentConfirmRequest,
    options?: RequestOptions,
  ): ApiPromise<DocumentRecord> {
    return callForUser(this.transport, 'kyc.document.confirm', userId, params, options);
  }

  /**
   * The whole upload: a presigned URL, the PUT of the bytes with its `method` and `headers` (never the API key)
   * within the URL's life, then the confirmation. A failed or late PUT throws `DocumentUploadError`, unconfirmed.
   * @example
   * ```ts
   * import { readFile } from 'node:fs/promises';
   * import type { PayoutClient } from 'inr-payouts';
   * async function uploadAadhaarFront(client: PayoutClient, userId: string, path: string) {
   *   const file = await readFile(path);
   *   const { documentId } = await client.kyc.document.upload(userId, { documentType: 'aadhaar', fileName: 'front.jpg', mimeType: 'image/jpeg', deviceId: 'device-fp-1', file });
   *   return documentId;
   * }
   * ```
   */
  async upload(
    userId: string,
    params: DocumentUploadParams,
    options: RequestOptions = {},
  ): Promise<DocumentRecord> {
    const { file, ...described } = params;
    const fileSize = sizeOf(file);
    if (fileSize === undefined) {
      throw new ValidationError('kyc.document.upload', [
        { path: 'file', message: 'is required: the document bytes as a Blob, ArrayBuffer or Uint8Array' },
      ]);
    }
    const request = { ...described, fileSize };
    const askedAt = this.transport.clock.now();
    const target = await this.createUploadUrl(userId, request, options);
    // The URL's life counts from before the request, so a slow answer never makes us overstay it.
    const expiresAt = askedAt + target.expiresIn * 1000;
    await this.#put(target, file, expiresAt, options);
    // The confirmation's schema sends only its own fields.
    return this.confirm(userId, { ...request, s3Key: target.s3Key }, options);
  }

  async #put(
    target: DocumentUploadUrl,
    file: Blob | ArrayBuffer | Uint8Array,
    expiresAt: number,
    options: RequestOptions,
  ): Promise<void> {
    // The URL's life runs on the service's clock; the PUT's own time-out is real network time.
    const remaining = expiresAt - this.transport.clock.now();
    if (remaining <= 0) throw new DocumentUploadError('the presigned URL expired before the upload started');
    const timeout = Math.min(remaining, options.timeout ?? remaining);
    const timer = AbortSignal.timeout(timeout);
    const signal = options.signal ? AbortSignal.any([options.signal, timer]) : timer;
    const doFetch = this.fetchImpl ?? globalThis.fetch;
    let response: Response;
    try {
      response = await doFetch(target.uploadUrl, {
        ...this.transport.fetchOptions(options),
        method: target.method,
        headers: target.headers,
        body: file as BodyInit,
        signal,
      });
    } catch (error) {
      if (options.signal?.aborted) {
        throw new APIUserAbortError('PUT to the presigned upload URL', { cause: options.signal.reason });
      }
      const reason = timer.aborted
        ? `the PUT did not finish within ${timeout} ms (the URL's life or the timeout)`
        : 'the storage could not be reached';
      throw new DocumentUploadError(reason, undefined, { cause: error });
    }
    // Drained, so the connection is released.
    await response.arrayBuffer().catch(() => undefined);
    if (!response.ok)
      throw new DocumentUploadError(`the storage answered ${response.status}`, response.status);
  }
}
