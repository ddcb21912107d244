import { describe, expect, it } from 'vitest';
import {
  APIUserAbortError,
  DigilockerSessionError,
  NotFoundError,
  PollTimeoutError,
} from '../../../src/index.js';
import { fail, fast, ok, only, route, useClient } from '../../support/msw.js';
import { postsAndReads } from './support.js';

const client = useClient();

const verifiedBody = {
  status: 'VERIFIED',
  verified: true,
  aadhaar: {
    name: 'Asha Rao',
    dob: '1990-01-01',
    gender: 'F',
    address: '1 MG Road, Bengaluru',
    maskedAadhaar: 'XXXX-XXXX-1234',
    pincode: '560001',
    state: 'Karnataka',
    district: 'Bengaluru Urban',
  },
  pan: { number: 'ABCDE1234F', name: 'ASHA RAO' },
};
const pending = ok({ status: 'PENDING', verified: false, message: 'Waiting for the user to give consent' });
const expired = fail(400, {
  success: false,
  error: 'Expired',
  message: 'Session expired',
  data: { status: 'EXPIRED', verified: false, error: 'Session expired' },
});

describe('kyc.digilocker.init', () => {
  it('POSTs redirectUrl and deviceId and reads clientId, url, expiresIn, message', async () => {
    await postsAndReads(
      'digilocker/init',
      { redirectUrl: 'https://partner.test/kyc', deviceId: 'fp-1' },
      { clientId: 'dl_1', url: 'https://locker.test/consent/dl_1', expiresIn: 600, message: 'Open the URL' },
      (userId, params) => client.kyc.digilocker.init(userId, params),
    );
  });

  it('sends an empty object when nothing is given', async () => {
    const seen = route(
      'post',
      '/v2/users/:id/kyc/digilocker/init',
      ok({ clientId: 'dl_1', url: 'u', expiresIn: 600 }),
    );
    await client.kyc.digilocker.init('usr_1');
    expect(seen[0]?.body).toEqual({});
  });
});

describe('kyc.digilocker.status', () => {
  it('Verified: GETs with clientId in the query and reads the Aadhaar and PAN data', async () => {
    const seen = route('get', '/v2/users/:id/kyc/digilocker/status', ok(verifiedBody));
    const result = await client.kyc.digilocker.status('usr_1', { clientId: 'dl_1' });
    expect(only(seen, false)).toMatchObject({
      method: 'GET',
      path: '/v2/users/usr_1/kyc/digilocker/status',
      query: { clientId: 'dl_1' },
      body: undefined,
    });
    expect(result).toEqual(verifiedBody);
    if (result.status !== 'VERIFIED') throw new Error('expected the Verified variant');
    expect(result.aadhaar.maskedAadhaar).toBe('XXXX-XXXX-1234');
  });

  it('Pending: reads status PENDING, verified false and the message', async () => {
    route('get', '/v2/users/:id/kyc/digilocker/status', pending);
    expect(await client.kyc.digilocker.status('usr_1', { clientId: 'dl_1' })).toEqual({
      status: 'PENDING',
      verified: false,
      message: 'Waiting for the user to give consent',
    });
  });

  it('Expired: the success:false body is returned as the Expired variant, with its status', async () => {
    route('get', '/v2/users/:id/kyc/digilocker/status', expired);
    const { data, response, message } = await client.kyc.digilocker
      .status('usr_1', { clientId: 'dl_1' })
      .withResponse();
    expect(data).toEqual({ status: 'EXPIRED', verified: false, error: 'Session expired' });
    expect(response.status).toBe(400);
    expect(message).toBe('Session expired');
  });

  it('Expired even on a 200 with success:false', async () => {
    route(
      'get',
      '/v2/users/:id/kyc/digilocker/status',
      fail(200, { success: false, data: { status: 'EXPIRED', verified: false, error: 'gone' } }),
    );
    expect(await client.kyc.digilocker.status('usr_1', { clientId: 'dl_1' })).toMatchObject({
      status: 'EXPIRED',
    });
  });

  it('Failed: reads status FAILED', async () => {
    route(
      'get',
      '/v2/users/:id/kyc/digilocker/status',
      ok({ status: 'FAILED', verified: false, error: 'User cancelled' }),
    );
    expect(await client.kyc.digilocker.status('usr_1', { clientId: 'dl_1' })).toMatchObject({
      status: 'FAILED',
    });
  });

  it('SESSION_NOT_FOUND stays an error', async () => {
    route(
      'get',
      '/v2/users/:id/kyc/digilocker/status',
      fail(404, { error: 'Not Found', message: 'Invalid clientId', code: 'SESSION_NOT_FOUND' }),
    );
    await expect(client.kyc.digilocker.status('usr_1', { clientId: 'dl_x' })).rejects.toBeInstanceOf(
      NotFoundError,
    );
  });
});

describe('kyc.digilocker.waitForCompletion', () => {
  it('polls Pending until Verified and returns the Verified body', async () => {
    const seen = route('get', '/v2/users/:id/kyc/digilocker/status', pending, pending, ok(verifiedBody));
    const result = await client.kyc.digilocker.waitForCompletion('usr_1', 'dl_1', fast);
    expect(result.aadhaar.name).toBe('Asha Rao');
    expect(seen).toHaveLength(3);
    expect(seen.every((s) => s.query.clientId === 'dl_1')).toBe(true);
  });

  it('EXPIRED throws DigilockerSessionError', async () => {
    route('get', '/v2/users/:id/kyc/digilocker/status', pending, expired);
    const error = await client.kyc.digilocker
      .waitForCompletion('usr_1', 'dl_1', fast)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DigilockerSessionError);
    expect(error).toMatchObject({ status: 'EXPIRED' });
  });

  it('FAILED throws DigilockerSessionError', async () => {
    route(
      'get',
      '/v2/users/:id/kyc/digilocker/status',
      ok({ status: 'FAILED', verified: false, error: 'User cancelled' }),
    );
    await expect(client.kyc.digilocker.waitForCompletion('usr_1', 'dl_1', fast)).rejects.toMatchObject({
      name: 'DigilockerSessionError',
      status: 'FAILED',
    });
  });

  it('the deadline throws PollTimeoutError', async () => {
    route('get', '/v2/users/:id/kyc/digilocker/status', pending);
    await expect(
      client.kyc.digilocker.waitForCompletion('usr_1', 'dl_1', { interval: 50, deadline: 200 }),
    ).rejects.toBeInstanceOf(PollTimeoutError);
  });

  it('abort stops the wait', async () => {
    route('get', '/v2/users/:id/kyc/digilocker/status', pending);
    const controller = new AbortController();
    const waiting = client.kyc.digilocker.waitForCompletion('usr_1', 'dl_1', {
      interval: 5_000,
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(), 50);
    await expect(waiting).rejects.toBeInstanceOf(APIUserAbortError);
  });
});
