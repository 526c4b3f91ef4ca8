/**
 * What delivery asks of a platform, and what it is told back. Each platform's
 * Sender (adapters/*) maps its library's answers onto SendResult, so the send
 * and retry rules (outcome.ts) are written once for every platform.
 */
import type { View } from '../../domain/view.ts';
import type { DestinationPlatform } from '../../store/subscriptions.ts';
import { fnv1a } from '../hash.ts';

export type SendResult =
  | { readonly kind: 'sent'; readonly messageId: string }
  /** Not accepted, safe to send again later (429, 5xx, connection refused). */
  | {
      readonly kind: 'retry';
      readonly afterMs: number;
      readonly reason: string;
      /** The platform's rate limit (a 429): a wait, not a failure, so it is never counted against the entry. */
      readonly rateLimited?: true;
    }
  /** The destination is gone for good (kicked, blocked, deleted, no access). */
  | {
      readonly kind: 'gone';
      readonly reason: string;
      readonly migrateTo?: string;
      /** Only the destination's thread is gone (a group turned topics off): the chat itself takes its alerts. */
      readonly toChat?: true;
      /**
       * Not yet: the same answer is retried every `retryMs` until the entry is this old, and only
       * then ends the destination (a Discord DM's Missing Access, spurious for user-installed apps).
       */
      readonly graceMs?: number;
      readonly retryMs?: number;
    }
  /** The request may have landed (a network error after sending): resending could post twice. */
  | { readonly kind: 'uncertain'; readonly reason: string }
  /** This message was refused (a 400, a view the platform cannot show); the destination is fine. */
  | { readonly kind: 'rejected'; readonly reason: string }
  /**
   * Nothing was sent: the destination is at its own rate limit (a Telegram group's 20 a minute)
   * and frees in `afterMs`. Not a failure: the destination is scheduled for then, and every other
   * destination goes on meanwhile.
   */
  | { readonly kind: 'paced'; readonly afterMs: number };

export interface Sender {
  readonly platform: DestinationPlatform;
  /**
   * Sends one alert; never throws. `nonce` is stable per entry (Discord dedupes with it).
   * `threadId`: the forum topic of the chat it goes to (domain/destination.ts); absent: the chat.
   */
  send(
    chatId: string,
    view: View,
    nonce: string,
    threadId?: string,
    onWire?: () => Promise<void>,
    how?: Posting,
  ): Promise<SendResult>;
  /**
   * The sender calls `onWire` right before its request leaves (after waiting for the
   * platform's limits), so an entry is marked in flight only once it may reach the
   * platform. Without it, delivery marks the entry before calling send.
   */
  readonly marksOnWire?: boolean;
  /**
   * The platform drops a second message with the same nonce (Discord): a send cut off by a
   * crash may be repeated safely. Without it (Telegram), a repeat could post twice.
   */
  readonly dedupes?: boolean;
  /**
   * Messages this chat may take in a minute (Telegram groups 20, Discord the channel's
   * bucket), every thread of it together. Without it, bursts are not merged.
   */
  perMinute?(chatId: string, isGroup: boolean): number;
  /**
   * Milliseconds until this chat (every thread of it together) may take a message by its own limits (0: now, or so soon
   * that the sender simply waits, as for Telegram's one message a second). Asked
   * before a send, so a destination at its limit waits on a timer, not in a worker. A sender that
   * paces must also answer `paced` from send() rather than sleep there (another sender, a
   * reply, may have taken the slot meanwhile).
   */
  readyIn?(chatId: string): number;
  /**
   * Replaces an alert already sent (more KOLs within the cooldown, a follow-up); never throws. On
   * Telegram a message id names it within its chat, whatever its thread; on Discord a thread is a
   * channel of its own, so the thread (and a forum's posting) says where it is. Without it, a new message goes out.
   */
  edit?(chatId: string, messageId: string, view: View, threadId?: string, how?: Posting): Promise<SendResult>;
}

/**
 * How this one message is posted where the platform offers more than a message
 * (the destination's Posting, store/subscriptions.ts): `ping` only on a new
 * alert, `title` names a forum post. A sender ignores what its platform lacks.
 */
export interface Posting {
  /** A role to mention (Discord), and only it. */
  readonly ping?: string;
  /** Publish to following servers (a Discord announcement channel). */
  readonly publish?: boolean;
  /** The destination is a forum: each message opens a post with these tags, titled `title`. */
  readonly forum?: { readonly tags: readonly string[] };
  /** The post's title: the token. */
  readonly title?: string;
  /** A person's own subscription (a DM): some platform answers mean less there. */
  readonly dm?: boolean;
  /**
   * A new alert, the one kind of message that may go out as a paid broadcast where the operator
   * turned them on (Telegram): merged bursts, summaries, digests, notices and edits go free.
   */
  readonly mayPay?: true;
  /** The destination's language, for what the sender adds itself (the hourly summary of unpublished alerts). */
  readonly locale?: string;
}

/** What a destination's queue does after one entry: go on, wait for a timer, or give up on the destination. */
export type Step = 'next' | 'later' | 'stop';

/** A deterministic nonce of at most 25 characters (Discord's limit) from the entry id. */
export function nonceFor(entryId: string): string {
  // Two differently seeded hashes: 64 bits, so two entries never share a nonce in practice.
  return `k${fnv1a(entryId).toString(36)}${fnv1a(entryId, 0x01000193).toString(36)}`.slice(0, 25);
}
