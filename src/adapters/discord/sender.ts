/**
 * Alert delivery through discord.js's REST client. The client queues per
 * route bucket, holds itself to the global limit, waits out short 429s and
 * retries 5xx and dropped connections, so many sends can run at once and this
 * file only maps what finally comes back. No call outlives its deadline
 * (deadline.ts): a longer wait comes back as a retry, so the destination waits
 * on delivery's timer instead of in a call. Every send carries an enforced nonce:
 * Discord answers a repeat within its window with the first message, so a
 * retry after a lost answer never posts twice.
 */
import { DiscordAPIError, HTTPError, RateLimitError, Routes, type REST } from 'discord.js';
import type { Logger } from 'pino';
import type { Sender, SendResult } from '../../alerts/delivery.ts';
import { toDiscordPayload } from '../../views/render/discord.ts';
import { SlidingWindow } from '../window.ts';
import type { View } from '../../domain/view.ts';
import { channelMessage } from './payload.ts';
import { Publisher } from './publish.ts';
import { SEND_DEADLINE_MS, within } from './deadline.ts';

/** JSON error codes that mean the bot will never post in this channel again without someone acting. */
const GONE_CODES: Readonly<Record<number, string>> = {
  10003: 'the channel no longer exists (Unknown Channel)',
  50001: 'the bot cannot see this channel or was removed from the server (Missing Access)',
  50013:
    'the bot lacks a permission here: it needs View Channel, Send Messages, Embed Links and Attach Files (Missing Permissions)',
  50007: 'the user does not accept direct messages from the bot',
  50083: 'the thread is archived and locked: the bot may not reopen it (Manage Threads)',
  40067: 'the forum requires a tag on each post: subscribe again there with tag: set',
};

/** A DM answering Missing Access: user-installed apps see spurious ones, so the DM is retried this long before it ends. */
export const DM_MISSING_ACCESS_GRACE_MS = 24 * 3_600_000;
const DM_RETRY_MS = 30 * 60_000;

/** Unknown Message: with enforce_nonce, the first message of this nonce was deleted, so it was delivered. */
const NONCE_MESSAGE_DELETED = 10008;

const RETRY_MS = 30_000;

export function mapSendError(err: unknown, dm = false): SendResult {
  if (err instanceof RateLimitError) {
    // A limit longer than a call may wait (deadline.ts): delivery waits it out on a timer, not as a failure.
    return {
      kind: 'retry',
      afterMs: Math.max(err.retryAfter, 1000),
      reason: `429 rate limited on ${err.route}`,
      rateLimited: true,
    };
  }
  if (err instanceof DiscordAPIError) {
    const code = typeof err.code === 'number' ? err.code : Number(err.code);
    if (dm && code === 50001)
      return {
        kind: 'gone',
        reason: 'Discord refused the DM (Missing Access) for a day',
        graceMs: DM_MISSING_ACCESS_GRACE_MS,
        retryMs: DM_RETRY_MS,
      };
    const known = GONE_CODES[code];
    if (known) return { kind: 'gone', reason: known };
    if (err.status === 429) return { kind: 'retry', afterMs: RETRY_MS, reason: '429 rate limited', rateLimited: true };
    if (err.status === 403)
      return { kind: 'gone', reason: `Discord refused access to this channel (403, code ${code})` };
    if (err.status === 404) return { kind: 'gone', reason: `Discord does not know this channel (404, code ${code})` };
    if (err.status >= 500) return { kind: 'retry', afterMs: RETRY_MS, reason: `Discord ${err.status}` };
    if (err.status === 401)
      return { kind: 'retry', afterMs: 5 * 60_000, reason: 'Discord refused the bot token (401)' };
    // Any other 4xx is about this message, not the channel: resending it unchanged cannot
    // succeed, and the channel must stay subscribed.
    return { kind: 'rejected', reason: `Discord rejected the message (${err.status}, code ${code}): ${err.message}` };
  }
  if (err instanceof HTTPError) {
    return { kind: 'retry', afterMs: RETRY_MS, reason: `Discord ${err.status} ${err.message}` };
  }
  // Network failures and timeouts after discord.js's own retries: safe to resend thanks to the nonce.
  const e = err as { name?: string; message?: string; code?: string };
  return {
    kind: 'retry',
    afterMs: RETRY_MS,
    reason: `network: ${e.code ?? e.name ?? 'error'} ${e.message ?? ''}`.trim(),
  };
}

/** Discord's global limit is 50 requests/s per bot; alerts keep a little below it for replies to commands. */
const ALERTS_PER_SECOND = 48;

/**
 * `window` paces alert posts before they go out: discord.js also limits itself
 * globally, but with a fixed window that can still land two windows' worth in one
 * of Discord's, and every request inside a 429 window counts against the bot.
 */
export function createDiscordSender(
  rest: REST,
  log: Logger,
  window: SlidingWindow = new SlidingWindow(ALERTS_PER_SECOND, 1000),
  publisher: Publisher = new Publisher(rest, log),
  deadlineMs = SEND_DEADLINE_MS,
): Sender {
  // Each channel's message bucket as Discord last announced it (limit per reset period),
  // so delivery can merge a burst the channel would only take over minutes.
  const buckets = new Map<string, number>();
  rest.on('response', (req, res) => {
    const m = /^\/channels\/(\d+)\/messages$/.exec(String(req.path));
    const limit = Number(res.headers.get('x-ratelimit-limit'));
    const resetAfter = Number(res.headers.get('x-ratelimit-reset-after'));
    if (!m || req.method !== 'POST' || !(limit > 0) || !(resetAfter > 0)) return;
    if (buckets.size > 10_000 && !buckets.has(m[1]!)) buckets.clear();
    // Reset-after counts down as the bucket is used: the longest one seen is closest to the full period.
    buckets.set(m[1]!, Math.min(buckets.get(m[1]!) ?? Infinity, Math.floor((limit * 60) / Math.max(resetAfter, 1))));
  });
  return {
    platform: 'discord',
    dedupes: true,
    // Before Discord said otherwise: 5 messages per 5 s per channel, as commonly seen.
    perMinute: (chatId) => buckets.get(chatId) ?? 60,
    async send(chatId, view, nonce, threadId, _onWire, how): Promise<SendResult> {
      publisher.resume();
      let message: ReturnType<typeof channelMessage>;
      try {
        message = withPing(channelMessage(toDiscordPayload(view), nonce), how?.ping);
      } catch (err) {
        // A view Discord cannot show (a renderer bug) fails the same way on every attempt.
        return { kind: 'rejected', reason: `could not render the alert: ${(err as Error).message}` };
      }
      try {
        const { body, files } = message;
        let sentId: string;
        let postedIn = threadId ?? chatId;
        if (how?.forum) {
          // A forum takes posts: a thread named for the token whose first message is the alert
          // (the thread's id is that message's, so edits find it by the message id alone). The
          // message carries the enforced nonce: a resend after a lost answer gets the first post back.
          const post = (await within(deadlineMs, (signal) =>
            window.run(() =>
              rest.post(Routes.threads(chatId), {
                body: { name: postTitle(how.title ?? view), applied_tags: how.forum!.tags, message: body },
                ...(files ? { files } : {}),
                signal,
              }),
            ),
          )) as { id: string };
          sentId = post.id;
          postedIn = post.id;
        } else {
          sentId = (
            (await within(deadlineMs, (signal) =>
              window.run(() =>
                rest.post(Routes.channelMessages(postedIn), files ? { body, files, signal } : { body, signal }),
              ),
            )) as { id: string }
          ).id;
        }
        if (how?.publish) await publisher.published(chatId, sentId, how.title, how.locale);
        return { kind: 'sent', messageId: sentId };
      } catch (err) {
        if (err instanceof DiscordAPIError && err.code === NONCE_MESSAGE_DELETED) {
          return { kind: 'sent', messageId: '' };
        }
        const result = mapSendError(err, how?.dm === true);
        log.debug(
          { chatId, result: result.kind, reason: 'reason' in result ? result.reason : undefined },
          'discord send failed',
        );
        return result;
      }
    },
    async edit(chatId, messageId, view, threadId, how): Promise<SendResult> {
      publisher.resume();
      try {
        const { embeds, components } = toDiscordPayload(view);
        // A forum post's first message lives in the thread named by its id.
        const where = how?.forum ? messageId : (threadId ?? chatId);
        await within(deadlineMs, (signal) =>
          window.run(() =>
            rest.patch(Routes.channelMessage(where, messageId), {
              body: { embeds, components, allowed_mentions: { parse: [] } },
              signal,
            }),
          ),
        );
        return { kind: 'sent', messageId };
      } catch (err) {
        if (err instanceof DiscordAPIError && err.code === UNKNOWN_MESSAGE)
          return { kind: 'rejected', reason: 'the alert was deleted' };
        return mapSendError(err, how?.dm === true);
      }
    },
  };
}

/** Discord's limit on a thread's (a forum post's) name. */
export const POST_TITLE_MAX = 100;

function postTitle(from: string | View): string {
  const text = typeof from === 'string' ? from : 'title' in from && typeof from.title === 'string' ? from.title : '';
  const one = text.replace(/\s+/g, ' ').trim() || 'kolradar';
  return one.length <= POST_TITLE_MAX ? one : `${one.slice(0, POST_TITLE_MAX - 1)}…`;
}

/**
 * The role goes in `content` (a mention inside an embed notifies nobody) and
 * allowed_mentions lets through that role alone: never @everyone, @here or a user.
 */
function withPing(message: ReturnType<typeof channelMessage>, role: string | undefined) {
  if (!role || !/^\d{17,20}$/.test(role)) return message;
  const content =
    typeof message.body['content'] === 'string' ? `<@&${role}> ${message.body['content']}` : `<@&${role}>`;
  return { ...message, body: { ...message.body, content, allowed_mentions: { parse: [], roles: [role] } } };
}

/** Discord: the message to edit no longer exists. */
const UNKNOWN_MESSAGE = 10008;
