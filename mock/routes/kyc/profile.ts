/**
 * The extended profile (assumed, docs/assumptions.md): stored for the extended status (spec 2.8); a
 * second submission replaces the first. It does not recompute the aggregate.
 */
import { ENDPOINTS } from '../../../src/endpoints/index.js';
import { defineModule } from '../../engine/module.js';
import { route } from '../../engine/route.js';
import { submitProfile } from '../../operations/kyc/profile.js';
import { requireUser } from '../shared.js';

const submit = route(ENDPOINTS['kyc.profile.submit'], (ctx) => {
  const user = requireUser(ctx, ctx.params.userId);
  const { deviceId: _deviceId, ...fields } = ctx.body;
  const { profileId, dateOfBirth, nationality, city, submittedAt } = submitProfile(ctx.mock, user.id, fields);
  return { data: { profileId, dateOfBirth, nationality, city, submittedAt }, message: 'Profile submitted' };
});

/** The profile route. */
export const profile = defineModule({ name: 'kyc.profile', routes: [submit] });
