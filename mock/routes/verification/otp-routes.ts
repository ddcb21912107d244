/**
 * Send and confirm for one OTP channel (spec 4.3, 7.4, 8; email confirm assumed). Both channels answer
 * errors in shape B (docs/assumptions.md) with the statuses listed there.
 */
import { ENDPOINTS } from '../../../src/endpoints/index.js';
import { MockApiError } from '../../engine/errors.js';
import type { MockResult } from '../../engine/respond.js';
import { type RouteContext, type RouteDefinition, route } from '../../engine/route.js';
import { confirmOtp, sendOtp } from '../../operations/verification.js';
import type { UserRecord } from '../../state/users.js';
import type { OtpChannel } from '../../state/verification.js';
import { requireUser } from '../shared.js';

/** What differs between the mobile and the email channel. */
export interface OtpChannelConfig {
  channel: OtpChannel;
  /** For messages: `Mobile number`, `Email`. */
  label: string;
  /** Where the OTP goes; undefined means the user has none (`No Email`). */
  target(user: UserRecord): string | undefined;
  sentData(target: string, expiresIn: number): Record<string, unknown>;
  isVerified(user: UserRecord): boolean;
  /** The confirm answer's `data` once the channel is verified at `at`. */
  verifiedData(at: string): Record<string, unknown>;
}

type Ctx = RouteContext<{ userId: string }, unknown>;

const fail = (status: number, error: string, message: string, extra: Record<string, unknown> = {}) =>
  new MockApiError(status, { error, message, ...extra });

function requireChannel(ctx: Ctx, config: OtpChannelConfig): { user: UserRecord; target: string } {
  const user = requireUser(ctx, ctx.params.userId);
  const target = config.target(user);
  if (!target) throw fail(400, 'No Email', `User ${user.id} has no email address on file`);
  if (config.isVerified(user)) {
    throw fail(400, 'Already Verified', `${config.label} of user ${user.id} is already verified`);
  }
  return { user, target };
}

function send(ctx: Ctx, config: OtpChannelConfig): MockResult {
  const { user, target } = requireChannel(ctx, config);
  const outcome = sendOtp(ctx.state, user.id, config.channel, ctx.now);
  if (outcome.result === 'too_many_sends') {
    const retryAfter = Math.ceil(outcome.retryAfterMs / 1000);
    throw fail(
      429,
      'Too Many Requests',
      `At most 3 OTPs per 10 minutes; try again in ${retryAfter} seconds`,
      {
        retryAfter,
      },
    );
  }
  const expiresIn = outcome.result === 'sent' ? outcome.expiresIn : 0;
  return { data: config.sentData(target, expiresIn), message: `OTP sent to ${config.label.toLowerCase()}` };
}

function confirm(ctx: Ctx, config: OtpChannelConfig, otp: string): MockResult {
  const { user } = requireChannel(ctx, config);
  const trigger = `POST /verify/${config.channel}/confirm`;
  const outcome = confirmOtp(ctx.mock, user, config.channel, otp, ctx.now, trigger);
  switch (outcome.result) {
    case 'no_otp':
      throw fail(400, 'No OTP Found', 'No active OTP for this user; request a new one');
    case 'max_attempts':
      throw fail(400, 'Max Attempts', 'This OTP has had 3 failed attempts; request a new OTP');
    case 'invalid':
      throw fail(400, 'Invalid OTP', 'The OTP is incorrect or expired', {
        attemptsRemaining: outcome.attemptsRemaining,
      });
    default:
      return { data: config.verifiedData(ctx.nowIso), message: `${config.label} verified` };
  }
}

/** The send and confirm routes of a channel: the rows `users.<channel>.sendOtp` and `users.<channel>.confirm`. */
export function otpRoutes(config: OtpChannelConfig): RouteDefinition[] {
  return [
    route(ENDPOINTS[`users.${config.channel}.sendOtp`], (ctx) => send(ctx, config)),
    route(ENDPOINTS[`users.${config.channel}.confirm`], (ctx) => confirm(ctx, config, ctx.body.otp)),
  ];
}
