/**
 * The extended profile (assumed, docs/assumptions.md): stored for the extended status (spec 2.8); a
 * second submission replaces the first. It does not recompute the aggregate.
 */
import { ProfileSubmitRequest } from '../../../src/schemas/kyc/profile.js';
import { nextId } from '../../engine/ids.js';
import { defineModule } from '../../engine/module.js';
import { route } from '../../engine/route.js';
import { kycRecord } from '../../operations/kyc.js';
import { recordStep } from '../../operations/transitions.js';
import { requireUser } from '../shared.js';

const submit = route(
  'POST',
  '/v2/users/:userId/kyc/profile',
  (ctx) => {
    const user = requireUser(ctx, ctx.params.userId);
    const record = kycRecord(ctx.state, user.id);
    const { deviceId: _deviceId, ...fields } = ctx.body;
    record.profile = { profileId: nextId(ctx.state, 'prof'), ...fields, submittedAt: ctx.nowIso };
    recordStep(ctx.state, user.id, 'profile', 'POST /kyc/profile');
    const { profileId, dateOfBirth, nationality, city, submittedAt } = record.profile;
    return { data: { profileId, dateOfBirth, nationality, city, submittedAt }, message: 'Profile submitted' };
  },
  { bodySchema: ProfileSubmitRequest },
);

/** The profile route. */
export const profile = defineModule({ name: 'kyc.profile', routes: [submit] });
