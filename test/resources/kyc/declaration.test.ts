import { describe, expect, it } from 'vitest';
import { isDeclarationRejected } from '../../../src/index.js';
import { fail, ok, only, route, useClient } from '../../support/msw.js';

const client = useClient();

describe('kyc.declaration.submit', () => {
  const params = {
    occupation: 'other',
    occupationOther: 'Sculptor',
    incomeRange: '5l_to_10l',
    isPep: false,
    declarationAccepted: true,
    deviceId: 'fp-1',
  } as const;

  it('POSTs the declaration and reads the record and message', async () => {
    const declaration = {
      declarationId: 'dec_1',
      occupation: 'other',
      incomeRange: '5l_to_10l',
      isPep: false,
      submittedAt: '2024-01-15T10:45:00Z',
    };
    const seen = route(
      'post',
      '/v2/users/:id/kyc/declaration',
      ok(declaration, { message: 'Declaration submitted' }),
    );
    const { data, message } = await client.kyc.declaration.submit('usr_1', params).withResponse();
    expect(only(seen, true)).toMatchObject({ path: '/v2/users/usr_1/kyc/declaration', body: params });
    expect(data).toEqual(declaration);
    expect(isDeclarationRejected(data)).toBe(false);
    expect(message).toBe('Declaration submitted');
  });

  it('PEP rejection: the success:false body is returned with kycStatus rejected', async () => {
    const pep = {
      ...params,
      occupation: 'business' as const,
      occupationOther: undefined,
      isPep: true,
      pepDetails: 'Member of a state legislature',
    };
    const seen = route(
      'post',
      '/v2/users/:id/kyc/declaration',
      fail(422, {
        success: false,
        error: 'KYC Rejected',
        message: 'KYC rejected: politically exposed person',
        data: { declarationId: 'dec_2', isPep: true, kycStatus: 'rejected' },
      }),
    );
    const { data, response, message } = await client.kyc.declaration.submit('usr_1', pep).withResponse();
    expect(seen[0]?.body).toMatchObject({ isPep: true, pepDetails: 'Member of a state legislature' });
    expect(data).toEqual({ declarationId: 'dec_2', isPep: true, kycStatus: 'rejected' });
    expect(isDeclarationRejected(data)).toBe(true);
    expect(response.status).toBe(422);
    expect(message).toBe('KYC rejected: politically exposed person');
  });

  it('other errors stay errors', async () => {
    route(
      'post',
      '/v2/users/:id/kyc/declaration',
      fail(404, { error: 'Not Found', message: 'No such user', code: 'USER_NOT_FOUND' }),
    );
    await expect(client.kyc.declaration.submit('usr_1', params)).rejects.toMatchObject({
      code: 'USER_NOT_FOUND',
    });
  });
});
