/**
 * Fan-out from the outbox to the platforms. Each destination is a queue of its
 * own, sent in order; many destinations run at once, so one slow or dead chat
 * never holds up the others. Pacing to the platforms' limits lives in each
 * platform's Sender (grammY and discord.js transports), which knows its rules.
 */
import type { Logger } from 'pino';
import type { SubscriptionStore } from '../store/subscriptions.ts';
import { subscriptionId, type DestinationPlatform, type Subscription } from '../store/subscriptions.ts';
import { tokenKeyOf } from '../domain/chains.ts';
import type { AlertKol, MergedItem, Outbox, OutboxEntry } from '../store/outbox.ts';
import type { ChatLanguages } from '../store/languages.ts';
import { alertView } from '../views/cards/alert.ts';
import type { View } from '../domain/view.ts';
import { fnv1a } from './hash.ts';
import type { Lease } from '../store/lease.ts';
import { disable, migrate } from './subscriptions.ts';
import { burstChunks, isAlert, mergedEntry, RecentSends } from './merge.ts';
import { quietUntil } from './quiet.ts';
import type { MarketAtTime, TokenRef } from './market.ts';
import { mergedView } from '../views/cards/merged.ts';
import type { CallStore } from '../store/calls.ts';
import { callOf, followupsOf } from './calls/record.ts';
import { followupLine } from '../views/cards/callLine.ts';
import { DEFAULT_LOCALE, translator, type Locale, type T } from '../i18n/index.ts';
import { formats } from '../i18n/format.ts';
import { chatLocale } from '../core/language.ts';

export type SendResult =
  | { readonly kind: 'sent'; readonly messageId: string }
  /** Not accepted, safe to send again later (429, 5xx, connection refused). */
  | { readonly kind: 'retry'; readonly afterMs: number; readonly reason: string }
  /** The destination is gone for good (kicked, blocked, deleted, no access). */
  | { readonly kind: 'gone'; readonly reason: string; readonly migrateTo?: string }
  /** The request may have landed (a network error after sending): resending could post twice. */
  | { readonly kind: 'uncertain'; readonly reason: string }
  /** This message was refused (a 400, a view the platform cannot show); the destination is fine. */
  | { readonly kind: 'rejected'; readonly reason: string };

export interface Sender {
  readonly platform: DestinationPlatform;
  /** Sends one alert; never throws. `nonce` is stable per entry (Discord dedupes with it). */
  send(chatId: string, view: View, nonce: string): Promise<SendResult>;
  /**
   * Messages this destination may take in a minute (Telegram groups 20, Discord the
   * channel's bucket). Without it, bursts are not merged.
   */
  perMinute?(chatId: string, isGroup: boolean): number;
  /** Replaces an alert already sent (more KOLs within the cooldown); never throws. Without it, a new message goes out. */
  edit?(chatId: string, messageId: string, view: View): Promise<SendResult>;
}

export interface DeliveryOptions {
  readonly outbox: Outbox;
  readonly subscriptions: SubscriptionStore;
  readonly senders: readonly Sender[];
  readonly log: Logger;
  /** Only the lease holder sends: checked before a drain and before every send. */
  readonly lease?: Pick<Lease, 'status'>;
  /** Destinations sent to at once; default 256. */
  readonly concurrency?: number;
  /**
   * How long transient failures (5xx, network) are retried before an alert is given up;
   * default 1 hour, so a platform outage of minutes loses nothing. 429s are always waited out.
   */
  readonly retryForMs?: number;
  readonly now?: () => number;
  /**
   * Market caps now (operation 2, as call tracking reads them), for the multiple since each
   * alert in a quiet-hours summary; without it the summary shows none.
   */
  readonly marketNow?: (tokens: readonly TokenRef[]) => Promise<ReadonlyMap<string, MarketAtTime>>;
  readonly onResult?: (entry: OutboxEntry, result: SendResult) => void;
  /** After each drain: entries still waiting (outbox depth). */
  readonly onDrained?: (pending: number) => void;
  /** Where accepted alerts are recorded as calls and follow-ups read them; absent: no call tracking. */
  readonly calls?: CallStore;
  /** Each destination's language (/language, seeded at /subscribe); English when absent or unreadable. */
  readonly languages?: ChatLanguages;
  /** Follow-up edits at once, across destinations; default 8. Few: a new alert never queues behind many edits in a sender's pacer. */
  readonly followupConcurrency?: number;
}

export interface Delivery {
  /** Sends everything pending; concurrent calls share one run and trigger one more after it. */
  drain(): Promise<void>;
  /** Stops after in-flight sends finish; pending entries stay in the outbox. */
  stop(): Promise<void>;
}

/** A deterministic nonce of at most 25 characters (Discord's limit) from the entry id. */
export function nonceFor(entryId: string): string {
  // Two differently seeded hashes: 64 bits, so two entries never share a nonce in practice.
  return `k${fnv1a(entryId).toString(36)}${fnv1a(entryId, 0x01000193).toString(36)}`.slice(0, 25);
}

/** The earlier alert's KOLs and the new ones, each named once, oldest first. */
function mergeKols(a: readonly AlertKol[], b: readonly AlertKol[]): AlertKol[] {
  const seen = new Set(a.map((k) => k.username.toLowerCase()));
  return [...a, ...b.filter((k) => !seen.has(k.username.toLowerCase()) && seen.add(k.username.toLowerCase()))];
}

/** Entries exempt from pause and mutes: an admin's `/alerts test`. */
const isTest = (e: OutboxEntry) => e.id.startsWith('test-');

/** Follow-up edits wait behind every new alert. */
const isFollowup = (e: OutboxEntry) => e.content.kind === 'followup';

type Step = 'next' | 'later' | 'stop';

export function createDelivery(o: DeliveryOptions): Delivery {
  const now = o.now ?? Date.now;
  const senders = new Map(o.senders.map((s) => [s.platform, s]));
  const retryForMs = o.retryForMs ?? 3_600_000;
  const concurrency = o.concurrency ?? 256;
  const followupConcurrency = o.followupConcurrency ?? 8;
  let running: Promise<void> | undefined;
  let again = false;
  /** A drain was asked for while follow-ups were being edited: they yield, so new alerts go first. */
  let yieldFollowups = false;
  let stopping = false;
  const leading = () => !o.lease || o.lease.status() === 'leader';
  /** Accepted by the platform, but the store did not take the "sent": never send these again. */
  const unrecorded = new Map<string, string>();
  let wakeAt = Infinity;
  let wakeTimer: NodeJS.Timeout | undefined;
  const recent = new RecentSends(now);

  /**
   * A destination that must wait (429, retry) does not hold a worker: it is
   * skipped until `at`, and a timer starts another drain then. New alerts for
   * every other destination go out meanwhile.
   */
  function wake(at: number): void {
    if (stopping || at >= wakeAt) return;
    wakeAt = at;
    clearTimeout(wakeTimer);
    wakeTimer = setTimeout(
      () => {
        wakeAt = Infinity;
        drain().catch((err: unknown) => o.log.warn({ err }, 'delivery paused'));
      },
      Math.max(1, at - now()),
    );
  }

  /** The destination's language: the one way delivery learns it. A store fault costs the language, never the alert. */
  async function localeOf(e: Pick<OutboxEntry, 'platform' | 'chatId'>): Promise<Locale> {
    if (!o.languages) return DEFAULT_LOCALE;
    // An alert has no caller: the destination's choice, else English.
    return chatLocale(o.languages, e, (err) => o.log.warn({ err }, 'alert language unreadable; sending in English'));
  }

  async function languageOf(e: Pick<OutboxEntry, 'platform' | 'chatId'>): Promise<T> {
    return translator(await localeOf(e));
  }

  async function finish(e: OutboxEntry, state: 'sent' | 'dead', detail: string): Promise<void> {
    e.state = state;
    if (state === 'sent') e.messageId = detail;
    else e.error = detail;
    await o.outbox.update(e);
  }

  /** An accepted alert becomes a call of its destination (once: a repeat changes nothing). */
  async function track(e: OutboxEntry, messageId: string, sub: Subscription | undefined): Promise<void> {
    if (o.calls && e.content.kind === 'merged' && messageId) {
      // Each alert of a merged message is a call of its own, scored like any other; it gets no
      // follow-up edits, which would replace the whole list with one alert.
      for (const id of e.content.members) {
        const m = await o.outbox.get(id);
        if (m?.content.kind === 'alert') await o.calls.record(callOf(m, m.content, messageId, [], now()));
      }
      return;
    }
    if (!o.calls || e.content.kind !== 'alert' || e.content.test || isTest(e) || !messageId) return;
    await o.calls.record(callOf(e, e.content, messageId, followupsOf(sub), now()));
  }

  async function sendOne(e: OutboxEntry, sender: Sender, sub: Subscription | undefined): Promise<Step> {
    const accepted = unrecorded.get(e.id);
    if (accepted !== undefined) {
      await track(e, accepted, sub);
      await finish(e, 'sent', accepted);
      unrecorded.delete(e.id);
      return 'next';
    }
    if (e.notBefore > now()) {
      wake(e.notBefore);
      return 'later';
    }
    if (e.content.kind === 'followup') return followUp(e, e.content, sender, sub);
    let r: SendResult;
    if (e.content.kind === 'more') {
      const step = await addKols(e, e.content, sender);
      if (step !== undefined) return step;
      r = { kind: 'sent', messageId: '' };
    } else {
      e.state = 'inflight';
      e.attempts++;
      await o.outbox.update(e);
      r = await sender.send(e.chatId, await viewOf(e), nonceFor(e.id));
    }
    o.onResult?.(e, r);
    switch (r.kind) {
      case 'sent':
        recent.record(`${e.platform}:${e.chatId}`);
        try {
          // The call first: an entry marked sent is also a recorded call (recording twice changes nothing).
          await track(e, r.messageId, sub);
          await finish(e, 'sent', r.messageId);
        } catch (err) {
          unrecorded.set(e.id, r.messageId);
          throw err;
        }
        return 'next';
      case 'retry':
        if (now() - e.createdAt > retryForMs && !r.reason.startsWith('429')) {
          await finish(e, 'dead', `gave up after ${e.attempts} attempts: ${r.reason}`);
          o.log.warn({ entry: e.id, reason: r.reason }, 'alert given up');
          return 'next';
        }
        e.state = 'pending';
        e.notBefore = now() + r.afterMs;
        await o.outbox.update(e);
        wake(e.notBefore);
        return 'later';
      case 'rejected':
        await finish(e, 'dead', `refused by the platform: ${r.reason}`);
        o.log.warn({ entry: e.id, reason: r.reason }, 'alert refused by the platform');
        return 'next';
      case 'uncertain':
        await finish(e, 'dead', `not resent after an uncertain send: ${r.reason}`);
        o.log.warn({ entry: e.id, reason: r.reason }, 'alert send uncertain; not retried to avoid a duplicate');
        return 'next';
      case 'gone':
        return destinationGone(e, r.reason, r.migrateTo);
    }
  }

  /**
   * More KOLs for an alert already queued or sent. Still waiting: it simply names
   * them all when it goes. Sent: it is edited (an edit is idempotent, so unlike a
   * send it may be retried). Returns a step when the edit could not be done now.
   */
  async function addKols(
    e: OutboxEntry,
    more: Extract<OutboxEntry['content'], { kind: 'more' }>,
    sender: Sender,
  ): Promise<Step | undefined> {
    const orig = await o.outbox.get(more.of);
    if (orig?.content.kind !== 'alert' || orig.state === 'dead') {
      await finish(e, 'dead', 'the alert to add to is gone');
      return 'next';
    }
    const merged = { ...orig.content, kols: mergeKols(orig.content.kols, more.kols) };
    if (merged.kols.length === orig.content.kols.length) return undefined;
    if (orig.state === 'sent' && orig.messageId) {
      const view = alertView(merged, await languageOf(orig));
      const r = sender.edit
        ? await sender.edit(orig.chatId, orig.messageId, view)
        : await sender.send(e.chatId, view, nonceFor(e.id));
      o.onResult?.(e, r);
      if (r.kind === 'retry') {
        e.notBefore = now() + r.afterMs;
        e.attempts++;
        await o.outbox.update(e);
        wake(e.notBefore);
        return 'later';
      }
      if (r.kind !== 'sent') {
        await finish(e, 'dead', `could not update the alert: ${r.kind}`);
        return 'next';
      }
    }
    await o.outbox.update({ ...orig, content: merged });
    // A merged alert is one call with all its KOLs.
    const call = await o.calls?.get(orig.id);
    if (call) {
      const kols = [...new Set([...call.kols, ...merged.kols.map((k) => k.username.toLowerCase())])];
      const tweetIds = [
        ...new Set([...call.tweetIds, ...more.kols.map((k) => k.tweetUrl.slice(k.tweetUrl.lastIndexOf('/') + 1))]),
      ];
      await o.calls!.save([{ ...call, kols, tweetIds, content: merged }]);
    }
    return undefined;
  }

  async function viewOf(e: OutboxEntry): Promise<View> {
    if (e.content.kind !== 'merged') return alertView(e.content, await languageOf(e));
    const [locale, sub] = await Promise.all([localeOf(e), o.subscriptions.get(e.subId)]);
    const c = e.content;
    return mergedView(c, translator(locale), {
      fmt: formats(locale),
      ...(sub?.quiet ? { tz: sub.quiet.tz } : {}),
      ...(c.why === 'quiet' ? { multiples: await multiples(c.items) } : {}),
    });
  }

  /** How far each held alert's token moved since its alert: market cap now over then. Best effort. */
  async function multiples(items: readonly MergedItem[]): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    if (!o.marketNow) return out;
    try {
      const caps = await o.marketNow(items.map((i) => ({ chain: i.token.chain, address: i.token.address })));
      for (const i of items) {
        const k = tokenKeyOf(i.token.chain, i.token.address);
        const nowCap = caps.get(k)?.marketCap;
        if (nowCap != null && i.token.marketCap != null && i.token.marketCap > 0 && !out.has(k))
          out.set(k, nowCap / i.token.marketCap);
      }
    } catch (err) {
      o.log.debug({ err }, 'market caps for a quiet-hours summary not read');
    }
    return out;
  }

  /** Stores a merged entry for these members, then marks them merged; returns it unless it was already sent. */
  async function merge(why: 'burst' | 'quiet', members: readonly OutboxEntry[]): Promise<OutboxEntry | undefined> {
    const fresh = mergedEntry(why, members, now());
    await o.outbox.enqueue(`merge-${fresh.id}`, [fresh]);
    const stored = (await o.outbox.get(fresh.id)) ?? fresh;
    for (const m of members) await markMerged(m, stored.id);
    return stored.state === 'pending' || stored.state === 'inflight' ? stored : undefined;
  }

  async function markMerged(e: OutboxEntry, into: string): Promise<void> {
    e.state = 'merged';
    e.mergedInto = into;
    await o.outbox.update(e);
  }

  /**
   * Before a destination's queue is sent: members of a merged entry already stored
   * are marked again (after a crash between the two writes); during quiet hours
   * alerts are held; after them, what was held becomes one summary; and a burst
   * larger than the destination takes in the next minute is merged.
   */
  async function regroup(q: OutboxEntry[], sub: Subscription | undefined, sender: Sender): Promise<OutboxEntry[]> {
    const t = now();
    const into = new Map<string, string>();
    for (const e of q) if (e.content.kind === 'merged') for (const id of e.content.members) into.set(id, e.id);
    for (const e of q) if (into.has(e.id)) await markMerged(e, into.get(e.id)!);
    let out = q.filter((e) => !into.has(e.id));
    // Paused, gone or unsubscribed: the send loop drops these as it always did (pause keeps nothing).
    if (!sub || sub.disabled || (sub.pausedUntil !== null && sub.pausedUntil > t)) return out;
    const until = sub.quiet ? quietUntil(sub.quiet, t) : undefined;
    const kept: OutboxEntry[] = [];
    const held: OutboxEntry[] = [];
    for (const e of out) {
      if (e.quietUntil !== undefined) {
        if (until !== undefined && e.quietUntil > t) wake(e.quietUntil);
        else held.push(e);
      } else if (until !== undefined && isAlert(e) && e.state === 'pending') {
        e.quietUntil = until;
        e.notBefore = until;
        await o.outbox.update(e);
        wake(until);
      } else kept.push(e);
    }
    out = kept;
    if (held.length) {
      const summary = await merge('quiet', held);
      if (summary) out.unshift(summary);
    }
    const ready = out.filter((e) => isAlert(e) && e.state === 'pending' && e.notBefore <= t);
    if (ready.length < 2 || !sender.perMinute) return out;
    const budget = sender.perMinute(sub.chatId, sub.isGroup) - recent.inLastMinute(`${sub.platform}:${sub.chatId}`);
    if (ready.length <= budget) return out;
    const replaced = new Map<string, OutboxEntry | null>();
    for (const chunk of burstChunks(ready, budget)) {
      if (chunk.length < 2) continue;
      const m = await merge('burst', chunk);
      chunk.forEach((e, i) => {
        replaced.set(e.id, i === 0 ? (m ?? null) : null);
      });
    }
    return out.flatMap((e) => {
      const r = replaced.get(e.id);
      return r === undefined ? [e] : r ? [r] : [];
    });
  }

  /**
   * A follow-up: the alert is edited in place with the call's latest line. A
   * message users deleted (or a chat the bot left) ends the call's follow-ups
   * quietly; an edit is idempotent, so anything transient is simply retried.
   */
  async function followUp(
    e: OutboxEntry,
    fu: Extract<OutboxEntry['content'], { kind: 'followup' }>,
    sender: Sender,
    sub: Subscription | undefined,
  ): Promise<Step> {
    const call = await o.calls?.get(fu.call);
    if (!call || call.ended) {
      await finish(e, 'dead', call ? `follow-ups ended: ${call.ended}` : 'call forgotten');
      return 'next';
    }
    if (!followupsOf(sub).length) {
      await finish(e, 'dead', 'follow-ups turned off here');
      return 'next';
    }
    if (!sender.edit) {
      await finish(e, 'dead', `${sender.platform} cannot edit`);
      return 'next';
    }
    const locale = await localeOf(call);
    const line = followupLine(call, translator(locale), formats(locale));
    e.attempts++;
    const r = await sender.edit(call.chatId, call.messageId, alertView(call.content, translator(locale), line));
    o.onResult?.(e, r);
    switch (r.kind) {
      case 'sent':
        await finish(e, 'sent', call.messageId);
        return 'next';
      case 'rejected':
      case 'gone':
        await o.calls!.save([{ ...call, ended: r.reason }]);
        await finish(e, 'dead', `follow-ups ended: ${r.reason}`);
        o.log.info({ call: call.id, reason: r.reason }, 'alert message gone; its follow-ups end');
        return 'next';
      case 'retry':
      case 'uncertain':
        if (now() - e.createdAt > retryForMs && !(r.kind === 'retry' && r.reason.startsWith('429'))) {
          await finish(e, 'dead', `gave up after ${e.attempts} attempts: ${r.reason}`);
          return 'next';
        }
        e.state = 'pending';
        e.notBefore = now() + (r.kind === 'retry' ? r.afterMs : 5_000);
        await o.outbox.update(e);
        wake(e.notBefore);
        return 'later';
    }
  }

  async function destinationGone(e: OutboxEntry, reason: string, migrateTo: string | undefined): Promise<Step> {
    if (migrateTo) {
      // The group became a supergroup: the settings move to the new id (the adapter may
      // already have moved them on the service message), and this destination's alerts
      // are re-queued there.
      const m = await migrate(o.subscriptions, e.subId, migrateTo, now());
      if (m) o.log.info(m, 'subscription migrated');
      moved.set(`${e.platform}:${e.chatId}`, { chatId: migrateTo, subId: subscriptionId(e.platform, migrateTo) });
      return 'stop';
    }
    await finish(e, 'dead', reason);
    if (await disable(o.subscriptions, e.subId, reason, now()))
      o.log.warn({ sub: e.subId, reason }, 'destination gone; subscription disabled');
    return 'stop';
  }

  /** Destinations that moved during this run (group migration): their entries follow. */
  const moved = new Map<string, { chatId: string; subId: string }>();

  /** Why a queued alert should no longer go out, read from the subscription as it is now. */
  function unwanted(e: OutboxEntry, sub: Subscription | undefined): string | undefined {
    if (!sub) return 'unsubscribed before it was sent';
    if (sub.disabled) return `destination disabled: ${sub.disabled.reason}`;
    if (isTest(e)) return undefined;
    if (sub.pausedUntil !== null && sub.pausedUntil > now()) return 'alerts paused';
    if (e.content.kind === 'followup') return undefined;
    if (
      e.content.kind === 'alert' &&
      sub.mutedTokens.includes(tokenKeyOf(e.content.token.chain, e.content.token.address))
    )
      return 'token muted';
    return undefined;
  }

  async function runQueue(q: OutboxEntry[]): Promise<void> {
    const first = q[0]!;
    const sender = senders.get(first.platform);
    if (!sender) {
      // No such platform in this process (a console subscription while on Discord): nothing can send it.
      for (const e of q) await finish(e, 'dead', `${first.platform} is not running`);
      return;
    }
    const sub = await o.subscriptions.get(first.subId);
    if (sub?.movedTo) {
      // The chat moved (group upgrade) after these were queued: they follow it.
      const to = { chatId: sub.movedTo, subId: subscriptionId(first.platform, sub.movedTo) };
      for (const e of q) {
        Object.assign(e, { ...to, state: 'pending', notBefore: 0 });
        await o.outbox.update(e);
      }
      again = true;
      return;
    }
    q = await regroup(q, sub, sender);
    for (let i = 0; i < q.length; i++) {
      if (stopping || failed || !leading()) return;
      const e = q[i]!;
      // Read again before each send: the destination may have unsubscribed, paused or muted meanwhile.
      const why = unwanted(e, i === 0 ? sub : await o.subscriptions.get(e.subId));
      if (why) {
        await finish(e, 'dead', why);
        continue;
      }
      if (isFollowup(e) && yieldFollowups) return;
      const step = await sendOne(e, sender, i === 0 ? sub : await o.subscriptions.get(e.subId));
      if (step === 'later') return;
      if (step === 'stop') {
        const to = moved.get(`${e.platform}:${e.chatId}`);
        for (const rest of q.slice(i)) {
          if (to) {
            Object.assign(rest, { chatId: to.chatId, subId: to.subId, state: 'pending', notBefore: 0 });
            await o.outbox.update(rest);
          } else if (rest.state !== 'dead') await finish(rest, 'dead', e.error ?? 'destination gone');
        }
        if (to) again = true;
        return;
      }
    }
  }

  let failed: unknown;

  async function runOnce(): Promise<void> {
    failed = undefined;
    moved.clear();
    recent.sweep();
    yieldFollowups = false;
    const pending = await o.outbox.pending();
    // New alerts first, then follow-up edits: a destination's edits are a queue of their own.
    const byDest = new Map<string, OutboxEntry[]>();
    const edits = new Map<string, OutboxEntry[]>();
    for (const e of pending) {
      const k = `${e.platform}:${e.chatId}`;
      const m = isFollowup(e) ? edits : byDest;
      let q = m.get(k);
      if (!q) {
        q = [];
        m.set(k, q);
      }
      q.push(e);
    }
    const run = async (queues: OutboxEntry[][], width: number, yields: boolean) => {
      let next = 0;
      // A store failure stops every worker before the run ends: no second run may start
      // while sends of this one are still going out.
      const worker = async () => {
        while (next < queues.length && !stopping && !failed && !(yields && yieldFollowups)) {
          try {
            await runQueue(queues[next++]!);
          } catch (err) {
            failed ??= err;
          }
        }
      };
      await Promise.all(Array.from({ length: Math.min(width, queues.length) }, worker));
    };
    await run([...byDest.values()], concurrency, false);
    if (!failed) await run([...edits.values()], followupConcurrency, true);
    if (failed) throw failed;
    o.onDrained?.(await o.outbox.compact());
  }

  function drain(): Promise<void> {
    if (stopping || !leading()) return Promise.resolve();
    if (running) {
      again = true;
      yieldFollowups = true;
      return running;
    }
    running = (async () => {
      try {
        do {
          again = false;
          await runOnce();
        } while (again && !stopping);
      } finally {
        running = undefined;
      }
    })();
    return running;
  }

  return {
    drain,
    async stop() {
      stopping = true;
      clearTimeout(wakeTimer);
      await running?.catch(() => {});
    },
  };
}
