import { describe, expect, it } from 'vitest';
import { SANDBOX_KYC } from '../../../../mock/index.js';
import { failure, kycServer, PDF_BASE64 } from './support.js';

const mock = kycServer();

describe('4.6, 7.4: passport errors (shape B)', () => {
  it('7.4: Bad Request (400) when the file is missing or not a PDF or image; Verification Failed (422) when unreadable', async () => {
    const { client, userId } = await mock.use();
    const path = `/v2/users/${userId}/kyc/passport/verify`;
    for (const body of [{}, { file: Buffer.from('plain text').toString('base64') }, { file: '%%%' }]) {
      await failure(client.request({ method: 'POST', path, body }), {
        status: 400,
        shape: 'B',
        error: 'Bad Request',
      });
    }
    const unreadable = Buffer.from(`%PDF-1.4 ${SANDBOX_KYC.unreadablePassportMarker}`).toString('base64');
    await failure(client.kyc.passport.verify(userId, { file: unreadable }), {
      status: 422,
      shape: 'B',
      error: 'Verification Failed',
    });
    expect((await client.kyc.passport.verify(userId, { file: PDF_BASE64 })).verified).toBe(true);
  });
});
