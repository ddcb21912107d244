import { describe, expect, it } from 'vitest';
import { otpTransition } from '../../../mock/machines/otp.js';
import type { OtpChannelState } from '../../../mock/state/verification.js';

const T0 = Date.parse('2025-01-01T00:00:00.000Z');

describe('OTP machine (spec 8), a pure function', () => {
  it('does not change its input', () => {
    const channel: OtpChannelState = { sends: [] };
    const frozen = structuredClone(channel);
    const { next } = otpTransition(channel, { type: 'send', code: '123456' }, T0);
    expect(channel).toEqual(frozen);
    const after = structuredClone(next);
    otpTransition(next, { type: 'confirm', code: '000000' }, T0);
    expect(next).toEqual(after);
  });

  it('8: counts only sends inside the 10-minute window and says when the next one is allowed', () => {
    let channel: OtpChannelState = { sends: [] };
    for (const minute of [0, 4, 9])
      channel = otpTransition(channel, { type: 'send', code: '1' }, T0 + minute * 60_000).next;
    const refused = otpTransition(channel, { type: 'send', code: '2' }, T0 + 9 * 60_000);
    expect(refused.outcome).toEqual({ result: 'too_many_sends', retryAfterMs: 60_000 });
    const allowed = otpTransition(channel, { type: 'send', code: '2' }, T0 + 10 * 60_000);
    expect(allowed.outcome).toEqual({ result: 'sent', expiresIn: 600 });
    expect(allowed.next.sends).toHaveLength(3);
  });

  it('8: a used OTP is gone (no_otp); a correct code after expiry is invalid', () => {
    const sent = otpTransition({ sends: [] }, { type: 'send', code: '123456' }, T0).next;
    const used = otpTransition(sent, { type: 'confirm', code: '123456' }, T0);
    expect(used.outcome).toEqual({ result: 'verified' });
    expect(otpTransition(used.next, { type: 'confirm', code: '123456' }, T0).outcome).toEqual({
      result: 'no_otp',
    });
    expect(otpTransition(sent, { type: 'confirm', code: '123456' }, T0 + 600_000).outcome).toEqual({
      result: 'invalid',
      attemptsRemaining: 2,
    });
  });
});
