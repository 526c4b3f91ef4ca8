/**
 * `/owner notice [discord|telegram] <text>`: a dry run that says how many it
 * would reach and keeps the draft; `/owner send <id>` queues it through the
 * outbox (src/alerts/notice.ts); `/owner progress <id>` says how far it got.
 */
import { randomBytes } from 'node:crypto';
import { noticeProgress, noticeTargets, queueNotice } from '../../src/alerts/notice.ts';
import { UserError } from '../../src/core/errors.ts';
import type { TextView } from '../../src/domain/view.ts';
import { formats } from '../../src/i18n/format.ts';
import type { Notice } from '../../src/store/owner.ts';
import type { OwnerContext } from './index.ts';

/** Long enough for any announcement, well inside one message on either platform (with the dry run's words). */
export const NOTICE_MAX = 1500;
/** Well inside the six hours the outbox keeps finished entries. */
const RESEND_WINDOW_MS = 3_600_000;

export async function notice(ctx: OwnerContext, rest: string): Promise<TextView> {
  const m = /^(discord|telegram)\b\s*([\s\S]*)$/i.exec(rest);
  const platform = m ? (m[1]!.toLowerCase() as 'discord' | 'telegram') : undefined;
  const text = (m ? m[2]! : rest).trim();
  if (!text) throw new UserError(ctx.t('owner.noticeEmpty'), '/owner notice Maintenance at 02:00 UTC');
  // Refused whole, never cut: a notice sent to every destination must say all the owner wrote.
  if (text.length > NOTICE_MAX) {
    const { int } = formats(ctx.locale);
    throw new UserError(ctx.t('owner.noticeTooLong', { length: int(text.length), max: int(NOTICE_MAX) }));
  }
  const draft: Notice = {
    id: randomBytes(4).toString('hex'),
    text,
    ...(platform ? { platform } : {}),
    by: ctx.owner.self,
    at: ctx.now(),
  };
  await ctx.owner.store.owner.putNotice(draft);
  return dryRun(ctx, draft);
}

/** How many the draft would reach, and the line that sends it. */
async function dryRun(ctx: OwnerContext, draft: Notice): Promise<TextView> {
  const targets = noticeTargets(await ctx.owner.store.subscriptions.all(), draft);
  if (!targets.length) return { kind: 'text', text: ctx.t('owner.noticeNone') };
  const { int } = formats(ctx.locale);
  const on = (p: string) => int(targets.filter((s) => s.platform === p).length);
  return {
    kind: 'text',
    text: [
      ctx.t('owner.noticeDry', {
        n: int(targets.length),
        discord: on('discord'),
        telegram: on('telegram'),
        send: `/owner send ${draft.id}`,
      }),
      '\n\n',
      draft.text,
    ],
  };
}

async function drafted(ctx: OwnerContext, rest: string): Promise<Notice> {
  const id = rest.split(/\s+/)[0] ?? '';
  const n = /^[0-9a-f]{8}$/.test(id) ? await ctx.owner.store.owner.notice(id) : undefined;
  if (!n) throw new UserError(ctx.t('owner.noticeUnknown', { id: id || '?' }), '/owner notice <text>');
  return n;
}

export async function send(ctx: OwnerContext, rest: string): Promise<TextView> {
  const n = await drafted(ctx, rest);
  // Confirmed before: within the hour its entries are queued again, which writes only those a
  // crash left unwritten (same ids); later (finished entries expire) it only says how far it got.
  if (n.sentAt !== undefined && ctx.now() - n.sentAt > RESEND_WINDOW_MS) return progress(ctx, n.id);
  const { store } = ctx.owner;
  const targets = noticeTargets(await store.subscriptions.all(), n);
  await queueNotice({ outbox: store.outbox, owner: store.owner }, n, targets, ctx.now());
  ctx.log.info({ notice: n.id, by: ctx.owner.self, destinations: targets.length }, 'owner notice queued');
  ctx.owner.kick?.();
  return {
    kind: 'text',
    text: ctx.t('owner.noticeQueued', {
      id: n.id,
      n: formats(ctx.locale).int(targets.length),
      progress: `/owner progress ${n.id}`,
    }),
  };
}

export async function progress(ctx: OwnerContext, rest: string): Promise<TextView> {
  const n = await drafted(ctx, rest);
  if (!n.to) return dryRun(ctx, n);
  // Once finished, the count is kept with the notice: the outbox forgets finished entries after six hours.
  const p = n.final ?? (await noticeProgress(ctx.owner.store.outbox, n));
  if (!n.final && !p.waiting) await ctx.owner.store.owner.putNotice({ ...n, final: p });
  const { int } = formats(ctx.locale);
  const values = { id: n.id, sent: int(p.sent), waiting: int(p.waiting), failed: int(p.failed), total: int(p.total) };
  const line = ctx.t(p.waiting ? 'owner.progress' : 'owner.progressDone', values);
  const unsure = p.unsure ?? 0;
  return { kind: 'text', text: unsure ? `${line} ${ctx.t('owner.progressUnsure', { unsure: int(unsure) })}` : line };
}
