/**
 * What sits between grammY and the Bot API: pacing of every send (replies and
 * alerts share one Pacer, so they share Telegram's limits), and reading the
 * errors Telegram answers with.
 */
import { GrammyError, type Transformer } from 'grammy';
import type { Pacer, RunOptions } from './pacer.ts';
import { isPaidRefusal } from './paid.ts';

/** The methods Telegram's flood control counts (edits and callback answers are not sends). */
const SEND_METHODS: ReadonlySet<string> = new Set([
  'sendMessage',
  'sendPhoto',
  'sendDocument',
  'sendAnimation',
  'sendVideo',
  'sendAudio',
  'sendVoice',
  'sendMediaGroup',
  'sendSticker',
  'sendPoll',
  'sendLocation',
  'sendContact',
  'sendDice',
  'copyMessage',
  'forwardMessage',
]);

interface RawResponse {
  readonly ok: boolean;
  readonly error_code?: number;
  readonly description?: string;
  readonly parameters?: { readonly retry_after?: number };
}

/** Seconds to wait from a 429 answer; undefined for anything else. */
export function retryAfterOf(res: RawResponse): number | undefined {
  if (res.ok || res.error_code !== 429) return undefined;
  const s = res.parameters?.retry_after;
  return typeof s === 'number' && s > 0 ? s : 1;
}

export interface PacingTransformerOptions {
  /** 429s waited out and retried before giving up (a 429 means nothing was posted, so a retry is safe). */
  readonly retries: number;
  /** A longer flood wait (real ms) is not waited out: the error goes to the caller. */
  readonly maxWaitMs: number;
  /** How long a send may wait for its chat's own limit before PacedError (see Pacer); absent: as long as needed. */
  readonly pace?: RunOptions;
}

/** Paces every send through `pacer`; waits out up to `retries` 429s. A PacedError (nothing sent) reaches the caller as thrown. */
export function pacingTransformer(pacer: Pacer, o: PacingTransformerOptions): Transformer {
  return async (prev, method, payload, signal) => {
    const chatId = SEND_METHODS.has(method) ? (payload as { chat_id?: unknown } | undefined)?.chat_id : undefined;
    if (typeof chatId !== 'number' && typeof chatId !== 'string') return prev(method, payload, signal);
    // The pacer reserved a paid send from today's cap; its answer settles it here.
    const policy = pacer.paidPolicy;
    for (let attempt = 0; ; ) {
      let refused = false;
      const send = async (paid: boolean) => {
        if (!paid || !policy) return prev(method, payload, signal);
        const res = await prev(method, { ...payload, allow_paid_broadcast: true } as typeof payload, signal);
        if (res.ok) policy.charged();
        else if (isPaidRefusal(res)) {
          refused = true;
          policy.refused(res.description);
        } else policy.release();
        return res;
      };
      const res = await pacer.run(String(chatId), send, retryAfterOf, o.pace);
      // Telegram would not take the payment: nothing was posted, so the same send goes again at the free rate.
      if (refused) continue;
      attempt++;
      const after = retryAfterOf(res);
      if (after === undefined || attempt > o.retries || after * pacer.secondMs > o.maxWaitMs) return res;
      // The pacer has already paused this chat (or the bot) for retry_after: the next run waits it out.
    }
  };
}

/** Telegram's chat id parameter: a number when it is one (ids fit in 52 bits), else as given. */
export function chatParam(chatId: string): number | string {
  return /^-?\d{1,16}$/.test(chatId) && Number.isSafeInteger(Number(chatId)) ? Number(chatId) : chatId;
}

export function migrateToOf(err: unknown): number | undefined {
  if (!(err instanceof GrammyError)) return undefined;
  const to = err.parameters.migrate_to_chat_id;
  return typeof to === 'number' ? to : undefined;
}

export function isNotModified(err: unknown): boolean {
  return err instanceof GrammyError && err.error_code === 400 && /message is not modified/i.test(err.description);
}

/** 400s that mean the chat is not there for us any more (as opposed to a bad message). */
const GONE_400 =
  /chat not found|PEER_ID_INVALID|not enough rights|need administrator rights|have no rights|CHAT_WRITE_FORBIDDEN|CHAT_RESTRICTED|group chat was deactivated|user not found|bot was kicked/i;

export function isChatGone(err: unknown): boolean {
  if (!(err instanceof GrammyError)) return false;
  return err.error_code === 403 || (err.error_code === 400 && GONE_400.test(err.description));
}

/** A forum topic that takes no more messages: closed, or gone ("message thread not found"). */
export function topicRefusal(err: unknown): 'closed' | 'not found' | undefined {
  if (!(err instanceof GrammyError) || err.error_code !== 400) return undefined;
  if (/TOPIC_CLOSED/i.test(err.description)) return 'closed';
  if (/message thread not found|TOPIC_DELETED/i.test(err.description)) return 'not found';
  return undefined;
}

/**
 * The forum topic a message is in: only when Telegram marks it `is_topic_message`.
 * A reply in a supergroup without topics also carries `message_thread_id` (its reply
 * thread), which is no topic; the General topic carries none. Undefined: the chat itself.
 */
export function topicOf(m: {
  readonly is_topic_message?: boolean;
  readonly message_thread_id?: number;
}): string | undefined {
  return m.is_topic_message && m.message_thread_id !== undefined ? String(m.message_thread_id) : undefined;
}
