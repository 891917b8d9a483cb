/**
 * When a failed webhook is tried again, and when an endpoint that keeps failing is switched off.
 *
 * The waits grow fast (a receiver that was restarting is caught within minutes) and then settle
 * at 10 h, until the next wait would end more than three days after the first attempt: 12
 * attempts over 2 days 19 h 35 min 5 s. A fixed list, not a formula, so the schedule the
 * documentation shows is the schedule that runs (Standard Webhooks' senders publish theirs the
 * same way):
 *
 *   attempt        1    2    3        4         5           6           7            8 … 12
 *   wait before    —    5 s  5 min    30 min    2 h         5 h         10 h         10 h each
 *   due after      0    5 s  5m 05s   35m 05s   2h 35m 05s  7h 35m 05s  17h 35m 05s  27h 35m 05s … 67h 35m 05s
 */
const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** The wait before each retry: RETRY_WAITS_MS[0] after the first attempt, and so on. */
export const RETRY_WAITS_MS: readonly number[] = Object.freeze([
  5 * SECOND,
  5 * MINUTE,
  30 * MINUTE,
  2 * HOUR,
  5 * HOUR,
  10 * HOUR,
  10 * HOUR,
  10 * HOUR,
  10 * HOUR,
  10 * HOUR,
  10 * HOUR,
]);

/** How long the schedule may run from the first attempt; RETRY_WAITS_MS stops short of it. */
export const RETRY_WINDOW_MS = 3 * DAY;

/** An endpoint whose deliveries have all failed for this long is disabled. */
export const DISABLE_AFTER_FAILING_MS = 5 * DAY;

/**
 * When the attempt after `attemptsMade` attempts is due (epoch ms), or undefined when the
 * schedule is over and the message has failed for good. Counted from the first attempt, not
 * from when the last one ended, so slow attempts or a late worker do not stretch the schedule;
 * after an outage several attempts may be overdue at once, and a caller sends the next one now.
 */
export function nextAttemptAt(firstAttemptAt: number, attemptsMade: number): number | undefined {
  if (!Number.isSafeInteger(attemptsMade) || attemptsMade < 0) throw new RangeError(`attemptsMade is a count, not ${attemptsMade}`);
  if (attemptsMade > RETRY_WAITS_MS.length) return undefined;
  let at = firstAttemptAt;
  for (let i = 0; i < attemptsMade; i++) at += RETRY_WAITS_MS[i]!;
  return at;
}

/**
 * Whether an endpoint failing since `failingSince` (its first failure after its last success)
 * should be disabled at `now`: five days or more, longer than one message's whole schedule, so
 * an endpoint is only disabled once messages have failed for good across several days.
 */
export function shouldDisable(failingSince: number, now: number): boolean {
  return now - failingSince >= DISABLE_AFTER_FAILING_MS;
}

/** How long attempts (and the deliveries and messages they belong to, once finished) are kept: 30 days. */
export const WEBHOOK_HISTORY_MS = 30 * DAY;
