/**
 * An owner's notice to every destination, through the outbox like any alert:
 * one entry per destination, its id `notice:<notice>:<subscription>`, so that
 * sending it again (a retried confirm, a crash between writes) writes nothing
 * new, and delivery sends each once, paced by each platform's sender within
 * its limits, resumed from the outbox after a restart.
 */
import type { Notice, OwnerStore } from '../store/owner.ts';
import type { Outbox, OutboxEntry } from '../store/outbox.ts';
import type { Subscription } from '../store/subscriptions.ts';
import { alertEntry } from './plan.ts';

/**
 * The destinations a notice reaches: every live subscription (of its platform), none banned
 * or stopped, the platforms taking turns, so that each goes out at its own platform's pace
 * from the start instead of one platform's queue waiting behind the other's.
 */
export function noticeTargets(all: readonly Subscription[], notice: Notice): Subscription[] {
  const live = all.filter(
    (s) => !s.disabled && s.platform !== 'console' && (!notice.platform || s.platform === notice.platform),
  );
  const byPlatform = [...Map.groupBy(live, (s) => s.platform).values()];
  const out: Subscription[] = [];
  for (let i = 0; out.length < live.length; i++) for (const list of byPlatform) if (i < list.length) out.push(list[i]!);
  return out;
}

/** Why delivery gave up on a notice a crash cut off in mid-send. */
export const CUT_OFF = 'cut off by a restart mid-send';

const entryId = (notice: string, subId: string) => `notice:${notice}:${subId}`;

/**
 * Queues the notice for `targets` (recorded on the notice first, so progress
 * counts exactly them); returns how many entries were new.
 */
export async function queueNotice(
  o: { outbox: Pick<Outbox, 'enqueue'>; owner: Pick<OwnerStore, 'putNotice'> },
  notice: Notice,
  targets: readonly Subscription[],
  now: number,
): Promise<number> {
  const to = notice.to ?? targets.map((s) => s.id);
  await o.owner.putNotice({ ...notice, to, sentAt: notice.sentAt ?? now });
  const byId = new Map(targets.map((s) => [s.id, s]));
  const entries = to.flatMap((id): OutboxEntry[] => {
    const s = byId.get(id);
    return s ? [alertEntry(entryId(notice.id, s.id), s, { kind: 'notice', text: notice.text }, now)] : [];
  });
  return o.outbox.enqueue(`notice:${notice.id}`, entries);
}

export interface NoticeProgress {
  readonly total: number;
  readonly sent: number;
  readonly failed: number;
  readonly waiting: number;
  /** Cut off by a restart while on the wire, not sent again (delivery/outcome.ts): they may have arrived. */
  readonly unsure: number;
}

/** How far a confirmed notice got, read from its outbox entries (finished ones are kept six hours). */
export async function noticeProgress(outbox: Pick<Outbox, 'get'>, notice: Notice): Promise<NoticeProgress> {
  const ids = notice.to ?? [];
  let sent = 0;
  let failed = 0;
  let waiting = 0;
  let unsure = 0;
  for (let i = 0; i < ids.length; i += 200) {
    const es = await Promise.all(ids.slice(i, i + 200).map((id) => outbox.get(entryId(notice.id, id))));
    for (const e of es) {
      if (e?.state === 'sent') sent++;
      else if (e?.state === 'pending' || e?.state === 'inflight') waiting++;
      else if (e?.error?.startsWith(CUT_OFF)) unsure++;
      else failed++;
    }
  }
  return { total: ids.length, sent, failed, waiting, unsure };
}
