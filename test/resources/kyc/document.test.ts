import { HttpResponse, http } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { APIUserAbortError, DocumentUploadError, ValidationError } from '../../../src/index.js';
import { makeClient, ok, only, requests, route, server, useClient } from '../../support/msw.js';

const client = useClient();

// The object's key, and the storage URL it is uploaded to.
const S3_KEY = 'kyc/usr_1/abc';
const STORAGE = `https://bucket.test/${S3_KEY}`;
const described = {
  documentType: 'passport',
  fileName: 'passport.pdf',
  mimeType: 'application/pdf',
  deviceId: 'fp-1',
} as const;
const uploadUrl = (expiresIn = 300) => ({
  uploadUrl: `${STORAGE}?X-Sig=1`,
  s3Key: S3_KEY,
  expiresIn,
  method: 'PUT',
  headers: { 'Content-Type': 'application/pdf' },
});
const record = {
  documentId: 'doc_1',
  documentType: 'passport',
  fileName: 'passport.pdf',
  uploadedAt: '2024-01-15T10:40:00Z',
};

interface Put {
  method: string;
  headers: Headers;
  bytes: Uint8Array;
  query: string;
}

function storage(status = 200): Put[] {
  const puts: Put[] = [];
  server.use(
    http.all(STORAGE, async ({ request }) => {
      puts.push({
        method: request.method,
        headers: request.headers,
        bytes: new Uint8Array(await request.arrayBuffer()),
        query: new URL(request.url).search,
      });
      return new HttpResponse(null, { status });
    }),
  );
  return puts;
}

describe('kyc.document.createUploadUrl', () => {
  it('POSTs the description and reads the presigned URL, method and headers', async () => {
    const seen = route('post', '/v2/users/:id/kyc/document/upload-url', ok(uploadUrl()));
    const result = await client.kyc.document.createUploadUrl('usr_1', { ...described, fileSize: 2048 });
    expect(only(seen, true)).toMatchObject({
      path: '/v2/users/usr_1/kyc/document/upload-url',
      body: { ...described, fileSize: 2048 },
    });
    expect(result).toEqual(uploadUrl());
  });
});

describe('kyc.document.confirm', () => {
  it('POSTs the s3Key and description and reads the document record and message', async () => {
    const seen = route('post', '/v2/users/:id/kyc/document', ok(record, { message: 'Document uploaded' }));
    const body = { ...described, s3Key: S3_KEY, fileSize: 2048 };
    const { data, message } = await client.kyc.document.confirm('usr_1', body).withResponse();
    expect(only(seen, true)).toMatchObject({ path: '/v2/users/usr_1/kyc/document', body });
    expect(data).toEqual(record);
    expect(message).toBe('Document uploaded');
  });
});

describe('kyc.document.upload', () => {
  const bytes = new Uint8Array([37, 80, 68, 70, 45, 49, 46, 52]);

  it('gets the URL, PUTs the bytes with the returned method and headers (no API key), then confirms', async () => {
    const asks = route('post', '/v2/users/:id/kyc/document/upload-url', ok(uploadUrl()));
    const puts = storage();
    const confirms = route('post', '/v2/users/:id/kyc/document', ok(record));
    const result = await client.kyc.document.upload('usr_1', { ...described, file: bytes });
    expect(asks[0]?.body).toEqual({ ...described, fileSize: bytes.byteLength });
    expect(puts).toHaveLength(1);
    expect(puts[0]?.method).toBe('PUT');
    expect(puts[0]?.query).toBe('?X-Sig=1');
    expect(puts[0]?.headers.get('content-type')).toBe('application/pdf');
    expect(puts[0]?.headers.get('authorization')).toBeNull();
    expect(puts[0]?.bytes).toEqual(bytes);
    expect(confirms[0]?.body).toEqual({ ...described, s3Key: S3_KEY, fileSize: bytes.byteLength });
    expect(result).toEqual(record);
  });

  it('takes a Blob', async () => {
    route('post', '/v2/users/:id/kyc/document/upload-url', ok(uploadUrl()));
    const puts = storage();
    route('post', '/v2/users/:id/kyc/document', ok(record));
    await client.kyc.document.upload('usr_1', { ...described, file: new Blob([bytes]) });
    expect(puts[0]?.bytes).toEqual(bytes);
  });

  it('a failed PUT throws DocumentUploadError and confirms nothing', async () => {
    route('post', '/v2/users/:id/kyc/document/upload-url', ok(uploadUrl()));
    storage(403);
    const confirms = route('post', '/v2/users/:id/kyc/document', ok(record));
    const error = await client.kyc.document
      .upload('usr_1', { ...described, file: bytes })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DocumentUploadError);
    expect(error).toMatchObject({ status: 403 });
    expect(confirms).toHaveLength(0);
  });

  it('a URL whose life ran out before the PUT is not used', async () => {
    route('post', '/v2/users/:id/kyc/document/upload-url', ok(uploadUrl(0)));
    const puts = storage();
    await expect(client.kyc.document.upload('usr_1', { ...described, file: bytes })).rejects.toBeInstanceOf(
      DocumentUploadError,
    );
    expect(puts).toHaveLength(0);
  });

  it('a PUT slower than the URL life is cut off', async () => {
    route('post', '/v2/users/:id/kyc/document/upload-url', ok({ ...uploadUrl(), expiresIn: 0.2 }));
    server.use(
      http.put(STORAGE, async () => {
        await new Promise((r) => setTimeout(r, 1_000));
        return new HttpResponse(null, { status: 200 });
      }),
    );
    const error = await client.kyc.document
      .upload('usr_1', { ...described, file: bytes })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DocumentUploadError);
    expect(String(error)).toMatch(/did not finish/);
  });

  it('abort during the PUT throws APIUserAbortError', async () => {
    route('post', '/v2/users/:id/kyc/document/upload-url', ok(uploadUrl()));
    server.use(
      http.put(STORAGE, async () => {
        await new Promise((r) => setTimeout(r, 1_000));
        return new HttpResponse(null, { status: 200 });
      }),
    );
    const controller = new AbortController();
    const uploading = client.kyc.document.upload(
      'usr_1',
      { ...described, file: bytes },
      { signal: controller.signal },
    );
    setTimeout(() => controller.abort(), 100);
    await expect(uploading).rejects.toBeInstanceOf(APIUserAbortError);
  });

  it('uses the fetch given to the client for the PUT', async () => {
    route('post', '/v2/users/:id/kyc/document/upload-url', ok(uploadUrl()));
    route('post', '/v2/users/:id/kyc/document', ok(record));
    storage();
    const spy = vi.fn((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));
    await makeClient({ fetch: spy }).kyc.document.upload('usr_1', { ...described, file: bytes });
    expect(spy.mock.calls.some(([input]) => String(input).startsWith(STORAGE))).toBe(true);
  });

  it('an oversized or mistyped file is refused before anything is sent', async () => {
    const big = new Uint8Array(10_485_761);
    await expect(client.kyc.document.upload('usr_1', { ...described, file: big })).rejects.toBeInstanceOf(
      ValidationError,
    );
    await expect(
      client.kyc.document.upload('usr_1', {
        ...described,
        mimeType: 'image/gif' as 'image/png',
        file: bytes,
      }),
    ).rejects.toBeInstanceOf(ValidationError);
    await expect(
      client.kyc.document.upload('usr_1', { ...described, file: 'not bytes' as unknown as Uint8Array }),
    ).rejects.toBeInstanceOf(ValidationError);
    expect(requests).toHaveLength(0);
  });
});
