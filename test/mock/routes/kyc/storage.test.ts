/**
 * The presigned upload URL of spec 4.10 over real HTTP: the raw bytes PUT to `uploadUrl`, with its method,
 * `Content-Type`, size and 300 s life enforced.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type RunningServer, startServer } from '../../server/support.js';

let server: RunningServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.stop();
});

/** A small PDF-looking binary file, with every byte value in it. */
const file = new Uint8Array(2048).map((_, i) => (i < 5 ? '%PDF-'.charCodeAt(i) : i % 256));

async function issue(userId: string) {
  const answer = await server.call('POST', `/v2/users/${userId}/kyc/document/upload-url`, {
    documentType: 'passport',
    fileName: 'passport.pdf',
    mimeType: 'application/pdf',
    fileSize: file.byteLength,
    deviceId: 'device-1',
  });
  expect(answer.status).toBe(200);
  return answer.body.data as {
    uploadUrl: string;
    s3Key: string;
    method: string;
    headers: Record<string, string>;
  };
}

describe('presigned upload over HTTP', () => {
  it('4.10: the bytes PUT to uploadUrl with the returned headers are accepted, then the upload confirms', async () => {
    const userId = await createUser(server);
    const presigned = await issue(userId);
    expect(presigned.uploadUrl.startsWith(`${server.origin}/__uploads/`)).toBe(true);
    const put = await fetch(presigned.uploadUrl, {
      method: presigned.method,
      headers: presigned.headers,
      body: file,
    });
    expect(put.status).toBe(200);
    const confirmed = await server.call('POST', `/v2/users/${userId}/kyc/document`, {
      documentType: 'passport',
      s3Key: presigned.s3Key,
      fileName: 'passport.pdf',
      fileSize: file.byteLength,
      mimeType: 'application/pdf',
      deviceId: 'device-1',
    });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.data).toMatchObject({ documentType: 'passport', fileName: 'passport.pdf' });
  });

  it('4.10: another method, another Content-Type or another size is refused', async () => {
    const userId = await createUser(server, '9876540001');
    const { uploadUrl } = await issue(userId);
    expect((await fetch(uploadUrl, { method: 'POST', body: file })).status).toBe(405);
    const wrongType = await fetch(uploadUrl, {
      method: 'PUT',
      headers: { 'Content-Type': 'image/png' },
      body: file,
    });
    expect(wrongType.status).toBe(403);
    const wrongSize = await fetch(uploadUrl, {
      method: 'PUT',
      headers: { 'Content-Type': 'application/pdf' },
      body: file.slice(1),
    });
    expect(wrongSize.status).toBe(400);
  });

  it('8: the upload URL is refused after its 300 s life on the virtual clock', async () => {
    const userId = await createUser(server, '9876540002');
    const { uploadUrl, headers } = await issue(userId);
    await server.helper('clock/advance', '301s');
    const late = await fetch(uploadUrl, { method: 'PUT', headers, body: file });
    expect(late.status).toBe(403);
    expect(await late.text()).toMatch(/expired/i);
  });
});
