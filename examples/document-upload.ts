// Document upload (spec 4.10): `client.kyc.document.upload` asks for a presigned URL, PUTs the bytes with the
// returned headers (never the API key) within the URL's 5 minutes, then confirms the upload, as one call.

import { fileURLToPath } from 'node:url';
import { PayoutClient } from 'inr-payouts';
import { createMockService } from 'inr-payouts/mock';
import { mswHandlers, onUnhandled } from 'inr-payouts/mock/msw';
import { setupServer } from 'msw/node';

export async function main() {
  const mock = createMockService();
  const server = setupServer(...mswHandlers(mock));
  server.listen(onUnhandled('error')); // msw 2 and 3: a request no handler serves fails
  try {
    const client = new PayoutClient({
      apiKey: mock.sandboxKey,
      baseUrl: mock.baseUrl,
      clock: mock.clientClock,
    });
    const { userId } = await client.users.create({ mobile: '9876543210', name: 'Asha Rao' });

    // In your app: the bytes of the file the user picked (fs.readFile, a Blob from a form...).
    const file = new TextEncoder().encode('%PDF-1.7 sample driving licence');
    const document = {
      documentType: 'driving_license',
      fileName: 'licence.pdf',
      mimeType: 'application/pdf',
      deviceId: 'device-fingerprint-1',
    } as const;

    const record = await client.kyc.document.upload(userId, { ...document, file });
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
