/** `/owner ban <platform:id> [reason]`, `/owner unban <platform:id>`, `/owner bans`. */
import { applyBan } from '../../src/alerts/subscriptions.ts';
import { UserError } from '../../src/core/errors.ts';
import type { Span, TextView } from '../../src/domain/view.ts';
import { formats } from '../../src/i18n/format.ts';
import type { OwnerContext } from './index.ts';

/** Ids as the platforms write them (domain/destination.ts): `telegram:-04901` would ban a chat no subscription has. */
const TARGET = /^(telegram|discord):(-?[1-9]\d{0,19})$/;

function target(ctx: OwnerContext, word: string | undefined): { platform: string; id: string; key: string } {
  const m = TARGET.exec(word ?? '');
  if (!m) throw new UserError(ctx.t('owner.badTarget'), '/owner ban telegram:-1001234567890 spam');
  return { platform: m[1]!, id: m[2]!, key: `${m[1]}:${m[2]}` };
}

const split = (rest: string) => {
  const m = /^(\S*)\s*([\s\S]*)$/.exec(rest)!;
  return { first: m[1], more: m[2]!.trim() };
};

export async function ban(ctx: OwnerContext, rest: string): Promise<TextView> {
  const { first, more } = split(rest);
  const to = target(ctx, first);
  const { store, self } = ctx.owner;
  await store.owner.ban({ target: to.key, reason: more, at: ctx.now(), by: self });
  const n = await applyBan(store.subscriptions, to, true, ctx.now());
  ctx.log.info({ banned: to.key, by: self, subscriptions: n }, 'banned by an owner');
  return { kind: 'text', text: ctx.t('owner.banned', { target: to.key, n: formats(ctx.locale).int(n) }) };
}

export async function unban(ctx: OwnerContext, rest: string): Promise<TextView> {
  const to = target(ctx, split(rest).first);
  const { store, self } = ctx.owner;
  if (!(await store.owner.unban(to.key))) return { kind: 'text', text: ctx.t('owner.notBanned', { target: to.key }) };
  const n = await applyBan(store.subscriptions, to, false, ctx.now());
  ctx.log.info({ unbanned: to.key, by: self, subscriptions: n }, 'unbanned by an owner');
  return { kind: 'text', text: ctx.t('owner.unbanned', { target: to.key, n: formats(ctx.locale).int(n) }) };
}

export async function bans(ctx: OwnerContext): Promise<TextView> {
  const list = await ctx.owner.store.owner.bans();
  if (!list.length) return { kind: 'text', text: ctx.t('owner.bansEmpty') };
  const lines: Span[] = [{ b: ctx.t('owner.bansTitle', { n: formats(ctx.locale).int(list.length) }) }];
  for (const b of list)
    lines.push(
      '\n',
      { code: b.target },
      ` · ${b.reason || ctx.t('owner.noReason')} · ${new Date(b.at).toISOString().slice(0, 16)}`,
    );
  return { kind: 'text', text: lines };
}
