/** `/owner destinations [failing|busiest|search:<text>] [page:<n>]`, `/owner disable <id>`, `/owner enable <id>`. */
import { BY_OWNER, disable, enable } from '../../src/alerts/subscriptions.ts';
import { UserError } from '../../src/core/errors.ts';
import type { Span, TextView } from '../../src/domain/view.ts';
import { formats } from '../../src/i18n/format.ts';
import type { OutboxEntry } from '../../src/store/outbox.ts';
import type { Subscription } from '../../src/store/subscriptions.ts';
import type { OwnerContext } from './index.ts';

const PAGE = 10;
const DAY_MS = 86_400_000;

/** A destination's kind, a key of the catalogue's owner.kind. */
export function kindOf(s: Pick<Subscription, 'platform' | 'chatId' | 'isGroup'>): string {
  if (s.platform !== 'telegram') return s.platform;
  return s.isGroup ? 'group' : s.chatId.startsWith('-') ? 'channel' : 'private';
}

export async function destinations(ctx: OwnerContext, rest: string): Promise<TextView> {
  const t = ctx.t;
  const { int } = formats(ctx.locale);
  const words = rest.split(/\s+/).filter(Boolean);
  const pageWord = words.find((w) => /^page[:=]\d+$/i.test(w));
  const page = Math.max(1, Number(pageWord?.slice(5) ?? 1));
  const filter = words.filter((w) => w !== pageWord).join(' ');
  const now = ctx.now();
  let subs = (await ctx.owner.store.subscriptions.all()).filter((s) => !s.movedTo);
  const counts = new Map<string, number>();
  const errors = new Map<string, { error: string; at: number }>();
  if (/^failing$/i.test(filter)) {
    // Stopped destinations, and those with a send that failed lately (the outbox keeps finished entries six hours).
    for (const [id, e] of await lastErrors(ctx)) errors.set(id, e);
    for (const s of subs) if (s.disabled) errors.set(s.id, { error: s.disabled.reason, at: s.disabled.at });
    subs = subs.filter((s) => errors.has(s.id)).sort((a, b) => errors.get(b.id)!.at - errors.get(a.id)!.at);
  } else if (/^busiest$/i.test(filter)) {
    for (let i = 0; i < subs.length; i += 100)
      await Promise.all(
        subs
          .slice(i, i + 100)
          .map(async (s) => counts.set(s.id, (await ctx.owner.store.calls.list(s.id, now - DAY_MS)).length)),
      );
    subs.sort((a, b) => (counts.get(b.id) ?? 0) - (counts.get(a.id) ?? 0) || a.id.localeCompare(b.id));
  } else {
    const q = filter.replace(/^search[:=]/i, '').toLowerCase();
    if (q) subs = subs.filter((s) => s.id.toLowerCase().includes(q) || (s.name ?? '').toLowerCase().includes(q));
    subs.sort((a, b) => a.createdAt - b.createdAt || a.id.localeCompare(b.id));
  }
  if (!subs.length) return { kind: 'text', text: t('owner.listEmpty') };
  const pages = Math.ceil(subs.length / PAGE);
  const at = Math.min(page, pages);
  const lines: Span[] = [{ b: t('owner.listTitle', { n: int(subs.length) }) }, '\n'];
  for (const s of subs.slice((at - 1) * PAGE, at * PAGE)) {
    const state = s.disabled
      ? t('owner.stateOff')
      : s.pausedUntil !== null && s.pausedUntil > now
        ? t('owner.statePaused')
        : t('owner.stateOn');
    const parts = [s.name, t(`owner.kind.${kindOf(s)}` as never), state];
    if (counts.has(s.id)) parts.push(int(counts.get(s.id)!));
    lines.push('\n', { code: s.id }, ` · ${parts.filter(Boolean).join(' · ')}`);
    const error = errors.get(s.id)?.error ?? s.disabled?.reason;
    if (error) lines.push(`\n  ${t('owner.colError')}: ${error}`);
  }
  if (at < pages) {
    const next = `/owner destinations ${[filter, `page:${at + 1}`].filter(Boolean).join(' ')}`;
    lines.push('\n\n', t('owner.page', { page: int(at), pages: int(pages), next }));
  }
  return { kind: 'text', text: lines };
}

/** Entries given up for a reason that is not the destination's own choice (paused, muted, unsubscribed). */
const CHOSEN = /^(unsubscribed|destination disabled|alerts paused|token muted)/;

/** Each destination's newest failed send still in the outbox. */
async function lastErrors(ctx: OwnerContext): Promise<Map<string, { error: string; at: number }>> {
  const out = new Map<string, { error: string; at: number }>();
  for await (const [key, e] of ctx.owner.store.space('outbox').entries<OutboxEntry>()) {
    if (!key.startsWith('e:') || e?.state !== 'dead' || !e.error || CHOSEN.test(e.error)) continue;
    const seen = out.get(e.subId);
    if (!seen || seen.at < e.createdAt) out.set(e.subId, { error: e.error, at: e.createdAt });
  }
  return out;
}

async function known(ctx: OwnerContext, id: string): Promise<Subscription> {
  const sub = id ? await ctx.owner.store.subscriptions.get(id) : undefined;
  if (!sub) throw new UserError(ctx.t('owner.noDestination', { id: id || '?' }), '/owner destinations');
  return sub;
}

export async function disableOne(ctx: OwnerContext, rest: string): Promise<TextView> {
  const sub = await known(ctx, rest.split(/\s+/)[0] ?? '');
  if (sub.disabled)
    return { kind: 'text', text: ctx.t('owner.alreadyOff', { id: sub.id, reason: sub.disabled.reason }) };
  await disable(ctx.owner.store.subscriptions, sub.id, BY_OWNER, ctx.now());
  ctx.log.info({ sub: sub.id, by: ctx.owner.self }, 'destination disabled by an owner');
  return { kind: 'text', text: ctx.t('owner.disabled', { id: sub.id }) };
}

export async function enableOne(ctx: OwnerContext, rest: string): Promise<TextView> {
  const sub = await known(ctx, rest.split(/\s+/)[0] ?? '');
  if (!(await enable(ctx.owner.store.subscriptions, sub.id, ctx.now())))
    throw new UserError(ctx.t('owner.notStoppedByOwner', { id: sub.id }));
  ctx.log.info({ sub: sub.id, by: ctx.owner.self }, 'destination enabled by an owner');
  return { kind: 'text', text: ctx.t('owner.enabled', { id: sub.id }) };
}
