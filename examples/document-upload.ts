// Document upload (spec 4.10), two steps around the PUT: a presigned URL, the bytes PUT with the returned
// headers within 5 minutes, then the confirmation. `client.kyc.document.upload` does all three as one call.

import { fileURLToPath } from 'node:url';
import { PayoutClient } from 'inr-payouts';
import { createMockService } from 'inr-payouts/mock';
import { setupServer } from 'msw/node';

export async function main() {
  const mock = createMockService();
  const server = setupServer(...mock.handlers);
  server.listen({ onUnhandledRequest: 'error' });
  try {
    const client = new PayoutClient({ apiKey: mock.sandboxKey, baseUrl: mock.baseUrl });
    const { userId } = await client.users.create({ mobile: '9876543210', name: 'Asha Rao' });

    // In your app: the bytes of the file the user picked (fs.readFile, a Blob from a form...).
    const file = new TextEncoder().encode('%PDF-1.7 sample driving licence');
    const document = {
      documentType: 'driving_license',
      fileName: 'licence.pdf',
      mimeType: 'application/pdf',
      deviceId: 'device-fingerprint-1',
    } as const;

    // Against the service, `client.kyc.document.upload(userId, { ...document, file })` does the three steps.
    // The embedded mock does not serve the storage URL in-process (the standalone server does), so here the
    // helper stands in for the PUT, with the storage's checks (method, Content-Type, size, 300 s life).
    const target = await client.kyc.document.createUploadUrl(userId, {
      ...document,
      fileSize: file.byteLength,
    });
    console.log(`${target.method} the bytes to ${target.uploadUrl} within ${target.expiresIn} s`);
    mock.helpers.kyc.upload({ s3Key: target.s3Key, contentType: document.mimeType, size: file.byteLength });
    const record = await client.kyc.document.confirm(userId, {
      ...document,
      s3Key: target.s3Key,
      fileSize: file.byteLength,
    });
    console.log(`stored ${record.fileName} as ${record.documentId} at ${record.uploadedAt}`);

    const extended = await client.kyc.extendedStatus(userId);
    console.log(
      `document submitted: ${extended.document?.submitted}; still missing: ${extended.missing.join(', ')}`,
    );
    return { record, extended };
  } finally {
    server.close();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
