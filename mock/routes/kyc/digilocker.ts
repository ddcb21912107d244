/**
 * Document-locker consent (spec 3.2, 4.4): init opens a 600 s session whose consent page is
 * `${baseUrl}/__pages/digilocker/:clientId`; the page (or `helpers.digilocker.complete`) approves or denies;
 * the status endpoint reports it. Errors in shape A: `SESSION_NOT_FOUND` 404, `ALREADY_VERIFIED` 409,
 * `SERVICE_UNAVAILABLE` 503; an EXPIRED or FAILED session answers `success: false` (400, shape B) with `data`.
 */
import { ENDPOINTS } from '../../../src/endpoints/index.js';
import { DIGILOCKER_SESSION_TTL_SECONDS } from '../../../src/schemas/common.js';
import { MockApiError } from '../../engine/errors.js';
import { defineModule } from '../../engine/module.js';
import { route } from '../../engine/route.js';
import { sessionStatusAt } from '../../machines/transition-table.js';
import { digilockerExpire, initDigilocker } from '../../operations/kyc/digilocker.js';
import { peekKycRecord } from '../../operations/kyc.js';
import { SANDBOX_EXPLANATIONS } from '../../sandbox-explanations.js';
import { SANDBOX_KYC } from '../../sandbox-values.js';
import { pick } from '../../state/records.js';
import { requireUser } from '../shared.js';

const init = route(ENDPOINTS['kyc.digilocker.init'], (ctx) => {
  const user = requireUser(ctx, ctx.params.userId);
  if (ctx.body.deviceId === SANDBOX_KYC.digilockerUnavailableDeviceId) {
    throw new MockApiError(
      503,
      {
        error: 'Service Unavailable',
        message: 'The document locker is not answering; try again in a few minutes (sandbox deviceId)',
        code: 'SERVICE_UNAVAILABLE',
      },
      undefined,
      SANDBOX_EXPLANATIONS.digilockerUnavailable,
    );
  }
  if (peekKycRecord(ctx.state, user.id).digilocker) {
    throw new MockApiError(409, {
      error: 'Conflict',
      message: `The document-locker verification of user ${user.id} is already complete; read GET /kyc/status`,
      code: 'ALREADY_VERIFIED',
    });
  }
  const { clientId } = initDigilocker(ctx.state, user.id, ctx.body);
  return {
    data: {
      clientId,
      url: `${ctx.baseUrl}/__pages/digilocker/${clientId}`,
      expiresIn: DIGILOCKER_SESSION_TTL_SECONDS,
      message: 'Open the URL to give consent in the document locker',
    },
    message: 'Document-locker session created',
  };
});

const status = route(ENDPOINTS['kyc.digilocker.status'], (ctx) => {
  const user = requireUser(ctx, ctx.params.userId);
  const { clientId } = ctx.query;
  const session = ctx.state.kyc.digilockerSessions[clientId];
  if (!session || session.userId !== user.id) {
    throw new MockApiError(404, {
      error: 'Not Found',
      message: `No document-locker session ${clientId} for user ${user.id}; start one with POST /kyc/digilocker/init`,
      code: 'SESSION_NOT_FOUND',
    });
  }
  const state = sessionStatusAt(session, ctx.now);
  if (state === 'VERIFIED' && session.aadhaar) {
    return { data: { status: 'VERIFIED', verified: true, ...pick(session, ['aadhaar', 'pan']) } };
  }
  if (state === 'PENDING') {
    return { data: { status: 'PENDING', verified: false, message: 'Waiting for the user to give consent' } };
  }
  const reason =
    state === 'EXPIRED'
      ? 'Session expired: start a new one with POST /kyc/digilocker/init'
      : `${session.reason ?? 'Verification failed'}: start a new session with POST /kyc/digilocker/init`;
  throw new MockApiError(
    400,
    {
      error: state === 'EXPIRED' ? 'Expired' : 'Failed',
      message: reason,
      data: { status: state, verified: false, error: reason },
    },
    'B',
  );
});

/** The document-locker routes and the expiry task. */
export const digilocker = defineModule({
  name: 'kyc.digilocker',
  routes: [init, status],
  tasks: [digilockerExpire],
});
