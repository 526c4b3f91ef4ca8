/** `/owner stats`: how many communities, destinations and subscriptions, what they got lately, what it costs. */
import { MAX_FOLLOWUP_MINUTES } from '../../src/alerts/calls/record.ts';
import type { CardView, Field } from '../../src/domain/view.ts';
import { formats } from '../../src/i18n/format.ts';
import type { Subscription } from '../../src/store/subscriptions.ts';
import type { OwnerContext } from './index.ts';
import { kindOf } from './destinations.ts';

const DAY_MS = 86_400_000;
/** The latest follow-up point an alert may have. */
const FOLLOWUPS_REACH_MS = MAX_FOLLOWUP_MINUTES * 60_000;

export async function stats(ctx: OwnerContext): Promise<CardView> {
  const { store } = ctx.owner;
  const t = ctx.t;
  const { int } = formats(ctx.locale);
  const subs = (await store.subscriptions.all()).filter((s) => !s.movedTo);
  const now = ctx.now();
  const kinds = new Map<string, number>();
  for (const s of subs) kinds.set(kindOf(s), (kinds.get(kindOf(s)) ?? 0) + 1);
  const discordServers = new Set(subs.filter((s) => s.platform === 'discord').map((s) => s.serverId ?? s.chatId));
  const telegramGroups = subs.filter((s) => s.platform === 'telegram' && s.isGroup).length;
  const live = subs.filter((s) => !s.disabled);
  const paused = live.filter((s) => s.pausedUntil !== null && s.pausedUntil > now).length;
  const day = await lastDay(ctx, subs, now - DAY_MS);
  const runtime = ctx.owner.runtime();
  const upstream = Object.entries(runtime.upstreamLastHour).sort((a, b) => b[1] - a[1]);
  const size = await storeSize(ctx);
  const beats = await ctx.owner.instances();
  // This instance even before its first beat landed (a store write that failed is only logged).
  const instances = beats.some((i) => i.id === runtime.instance)
    ? beats
    : [{ id: runtime.instance, roles: runtime.roles }, ...beats];
  const fields: Field[] = [
    {
      name: t('owner.servers'),
      value: t('owner.serversValue', { discord: int(discordServers.size), telegram: int(telegramGroups) }),
    },
    {
      name: t('owner.destinations'),
      value: [...kinds].map(([k, n]) => `${t(`owner.kind.${k}` as never)}: ${int(n)}`).join('\n') || t('owner.none'),
    },
    {
      name: t('owner.subscriptions'),
      value: t('owner.subscriptionsValue', {
        active: int(live.length - paused),
        paused: int(paused),
        stopped: int(subs.length - live.length),
      }),
    },
    {
      name: t('owner.lastDay'),
      value: t('owner.lastDayValue', { alerts: int(day.alerts), followups: int(day.followups) }),
    },
    {
      name: t('owner.upstream'),
      value: upstream.length ? upstream.map(([op, n]) => `${op}: ${int(n)}`).join('\n') : t('owner.none'),
    },
    {
      name: t('owner.store'),
      value: t('owner.storeValue', {
        kind: store.kind,
        keys: int(size.keys),
        size: `${(size.bytes / 1_048_576).toFixed(1)} MB`,
      }),
    },
    {
      name: t('owner.instances'),
      value: instances
        .map((i) => `${i.id}${i.id === runtime.instance ? ` (${t('owner.instance')})` : ''}: ${rolesOf(i.roles)}`)
        .join('\n'),
    },
  ];
  return { kind: 'card', title: t('owner.statsTitle'), fields, colour: 'brand' };
}

/**
 * Alerts sent and follow-ups made since `from`, read from the calls every destination keeps; a
 * follow-up today may belong to an alert of the days before (points reach 30 days).
 */
async function lastDay(ctx: OwnerContext, subs: readonly Subscription[], from: number) {
  let alerts = 0;
  let followups = 0;
  for (let i = 0; i < subs.length; i += 100) {
    const lists = await Promise.all(
      subs.slice(i, i + 100).map((s) => ctx.owner.store.calls.list(s.id, from - FOLLOWUPS_REACH_MS)),
    );
    for (const calls of lists)
      for (const c of calls) {
        if (c.at >= from) alerts++;
        followups += c.samples.filter((x) => x.point !== undefined && x.at >= from).length;
      }
  }
  return { alerts, followups };
}

async function storeSize(ctx: OwnerContext): Promise<{ keys: number; bytes: number }> {
  let keys = 0;
  let bytes = 0;
  for await (const r of ctx.owner.store.raw.rows()) {
    keys++;
    bytes += r.key.length + r.value.length;
  }
  return { keys, bytes };
}

/** `watcher: leader · telegram: {"poller":"poller"}`: each role as the instance reported it. */
const rolesOf = (roles: Readonly<Record<string, unknown>>): string =>
  Object.entries(roles)
    .map(([k, v]) => `${k}: ${typeof v === 'string' ? v : JSON.stringify(v)}`)
    .join(' · ');
