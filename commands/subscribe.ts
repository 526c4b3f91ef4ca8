import { describeFilters, toSubscribeLine } from '../src/alerts/filters.ts';
import { POSTING_OPTIONS, SETTING_OPTIONS } from '../src/alerts/settings.ts';
import { overQuota, StoppedByOwner, subscribe } from '../src/alerts/subscriptions.ts';
import type { Command, CommandContext } from '../src/core/command.ts';
import { pickLocale } from '../src/i18n/index.ts';
import type { AlertFilters, DestinationPosting } from '../src/store/subscriptions.ts';
import type { T } from '../src/i18n/index.ts';
import { destinationOf, feedHead } from './_subscription.ts';
import { followupsOf, parseFollowups } from '../src/alerts/calls/record.ts';
import { parseDuration } from '../src/core/duration.ts';
import { UserError } from '../src/core/errors.ts';
import { formats } from '../src/i18n/format.ts';
import { followupsSetting } from '../src/views/cards/callLine.ts';
import { ageDays, normalizeKeyword } from '../src/alerts/rules.ts';

const options = { ...SETTING_OPTIONS.subscribe, ...POSTING_OPTIONS };

/** The role to ping and whether to publish, as typed, checked against what the bot may do here. */
interface PostingInput {
  ping?: string | undefined;
  ping_summaries?: boolean | undefined;
  publish?: boolean | undefined;
  tag?: string | undefined;
}

/** The forum's tag named `tag` (any case), or why not: only in a forum's post, only one of its tags. */
function forumTag(o: PostingInput, ctx: CommandContext): string | undefined {
  const forum = ctx.caller.forum;
  if (o.tag !== undefined && !forum)
    throw new UserError(ctx.t('destinations.forumOnlyInPost'), '/subscribe tag:alerts');
  if (o.tag === undefined || !forum) return undefined;
  const hit = forum.tags.find((x) => x.name.toLowerCase() === o.tag!.trim().toLowerCase());
  if (!hit)
    throw new UserError(
      ctx.t('destinations.forumUnknownTag', { tag: o.tag, tags: forum.tags.map((x) => x.name).join(', ') || '-' }),
    );
  return hit.id;
}

function postingFrom(o: PostingInput, ctx: CommandContext, personal: boolean) {
  const { roles, serverId, channelKind, forum } = ctx.caller;
  const tag = forumTag(o, ctx);
  if (o.ping !== undefined) {
    if (!roles) throw new UserError(ctx.t('destinations.pingNoRoles'));
    // @everyone (the server's own id) is never pinged: picking it turns the ping off.
    const role = roles.role(o.ping);
    if (o.ping !== serverId && role?.mentionable === false && !roles.botMentionsEveryone)
      throw new UserError(ctx.t('destinations.pingNotMentionable', { role: role.name }));
  }
  if (o.publish === true && channelKind !== 'announcement')
    throw new UserError(ctx.t('destinations.publishOnlyAnnouncement'), '/subscribe publish:true');
  return (was: DestinationPosting | undefined): DestinationPosting | undefined => {
    const { pingRole, pingSummaries, publish, forum: posts, ...rest } = was ?? {};
    const ping = o.ping === undefined ? pingRole : o.ping === serverId ? undefined : o.ping;
    const pub = o.publish === undefined ? publish : o.publish || undefined;
    const tags = tag ? [tag] : (posts?.tags ?? []);
    // Discord refuses a post without a tag in a forum that requires one: say so now, not at the first alert.
    if (forum?.requiresTag && tags.length === 0)
      throw new UserError(
        ctx.t('destinations.forumTagRequired', { tags: forum.tags.map((x) => x.name).join(', ') || '-' }),
        '/subscribe tag:alerts',
      );
    return {
      ...rest,
      ...(ping ? { pingRole: ping } : {}),
      ...(ping && (o.ping_summaries ?? pingSummaries) ? { pingSummaries: true as const } : {}),
      ...(pub ? { publish: true as const } : {}),
      ...(personal ? { personal: true as const } : {}),
      // A forum takes posts, never messages: each alert opens one.
      ...(forum ? { forum: { tags } } : {}),
    };
  };
}

/** `off` alone clears a list; otherwise its words, lower-case, once each. */
const words = (xs: readonly string[]) =>
  xs.length === 1 && xs[0]!.toLowerCase() === 'off' ? [] : [...new Set(xs.map(normalizeKeyword))];

/**
 * Alerts are said in the chat's language: a chat that has none yet gets the
 * Discord server's language, else the admin's, so alerts do not fall back to
 * English. A store fault costs only this, never the subscription.
 */
async function seedLanguage(ctx: CommandContext, to: { chatId: string; threadId?: string | undefined }): Promise<void> {
  const { platform, guildLocale } = ctx.caller;
  const { chatId, threadId } = to;
  try {
    if (await ctx.store.languages.get(platform, chatId, threadId)) return;
    await ctx.store.languages.set(platform, chatId, pickLocale(guildLocale, ctx.locale), threadId);
  } catch (err) {
    ctx.log.warn({ err }, 'alert language not stored');
  }
}

const lower = (xs: readonly string[]) => [...new Set(xs.map((x) => x.replace(/^@/, '').toLowerCase()))];

/** A field set only when it has a value: an absent filter is off, as in subscriptions made before it. */
const pick = <K extends keyof AlertFilters>(k: K, v: AlertFilters[K] | undefined) =>
  v === undefined ? {} : ({ [k]: v } as Pick<AlertFilters, K>);
/** A typed bound replaces the stored one; 0 turns it off. */
const bound = (
  k: 'minMarketCap' | 'maxMarketCap' | 'minLiquidity',
  typed: number | undefined,
  was: number | undefined,
) => pick(k, typed === undefined ? was : typed > 0 ? typed : undefined);
const list = (k: 'keywords' | 'blockKeywords', typed: string[] | undefined, was: readonly string[] | undefined) => {
  const v = typed === undefined ? was : words(typed);
  return pick(k, v?.length ? v : undefined);
};

export default {
  name: 'subscribe',
  options,
  chatSettings: true,
  personal: true,
  examples: [
    '/subscribe',
    '/subscribe chains:solana,base token_score:80 kol_score:65 followers:20000 cooldown:30',
    '/subscribe followups:1h,24h',
    '/subscribe min_mcap:100k min_liquidity:25k max_age:3d block:rug,scam,careful',
  ],
  requires: 'manage',
  async run(o, ctx) {
    const followups = o.followups === undefined ? undefined : parseFollowups(o.followups, parseDuration);
    if (o.followups !== undefined && followups === undefined)
      throw new UserError(ctx.t('calls.badFollowups', { value: o.followups }), '/subscribe followups:1h,6h,24h');
    const maxAge = o.max_age === undefined || o.max_age.toLowerCase() === 'off' ? undefined : ageDays(o.max_age);
    if (o.max_age !== undefined && o.max_age.toLowerCase() !== 'off' && maxAge === undefined)
      throw new UserError(ctx.t('subscribe.badAge', { value: o.max_age }), '/subscribe max_age:3d');
    const filtersFrom = (base: AlertFilters): AlertFilters => {
      const f = merged(base);
      if (f.minMarketCap !== undefined && f.maxMarketCap !== undefined && f.minMarketCap > f.maxMarketCap) {
        const { usd } = formats(ctx.locale);
        const values = { min: 'min_mcap', lo: usd(f.minMarketCap), max: 'max_mcap', hi: usd(f.maxMarketCap) };
        throw new UserError(ctx.t('errors.bounds', values), '/subscribe min_mcap:100k max_mcap:50m');
      }
      return f;
    };
    const merged = (base: AlertFilters): AlertFilters => ({
      chains: o.chains ? [...new Set(o.chains)] : base.chains,
      minTokenScore: o.token_score ?? base.minTokenScore,
      minKolScore: o.kol_score ?? base.minKolScore,
      minFollowers: o.followers ?? base.minFollowers,
      labels: o.labels ? lower(o.labels) : base.labels,
      tweetTypes: o.types ? lower(o.types) : base.tweetTypes,
      allowKols: o.only ? lower(o.only) : base.allowKols,
      denyKols: o.except ? lower(o.except) : base.denyKols,
      cooldownMinutes: o.cooldown ?? base.cooldownMinutes,
      ...(followups ? { followups } : base.followups ? { followups: base.followups } : {}),
      ...bound('minMarketCap', o.min_mcap, base.minMarketCap),
      ...bound('maxMarketCap', o.max_mcap, base.maxMarketCap),
      ...bound('minLiquidity', o.min_liquidity, base.minLiquidity),
      ...(o.max_age === undefined ? pick('maxAgeDays', base.maxAgeDays) : pick('maxAgeDays', maxAge)),
      ...list('keywords', o.keywords, base.keywords),
      ...list('blockKeywords', o.block, base.blockKeywords),
    });
    const to = destinationOf(ctx);
    const posting = postingFrom(o, ctx, !to.isGroup);
    // A personal subscription starts with a real DM: one that could never be delivered is refused now.
    if (!to.isGroup && ctx.caller.confirmPrivately && !(await ctx.caller.confirmPrivately(ctx.t('destinations.dmOn'))))
      throw new UserError(ctx.t('destinations.dmClosed'));
    const over = ctx.quotas && (await overQuota(ctx.store.subscriptions, to, ctx.caller.userId, ctx.quotas));
    if (over)
      throw new UserError(
        ctx.t(over.which === 'server' ? 'owner.quotaServer' : 'owner.quotaPerson', {
          limit: formats(ctx.locale).int(over.limit),
        }),
      );
    const { sub, updated } = await subscribe(
      ctx.store.subscriptions,
      to,
      ctx.caller.userId,
      filtersFrom,
      () => feedHead(ctx),
      ctx.now(),
      posting,
    ).catch((err: unknown) => {
      throw err instanceof StoppedByOwner ? new UserError(ctx.t('owner.stoppedByOwner')) : err;
    });
    await seedLanguage(ctx, to);
    const filters = sub.filters;
    const t = ctx.t;
    return {
      kind: 'card',
      title: t(updated ? 'subscribe.updated' : 'subscribe.on'),
      description: [
        describeFilters(filters, t).join('\n'),
        '\n',
        followupsSetting(followupsOf(sub), ctx.t, formats(ctx.locale)),
        ...postingLines(sub.posting, t, (id) => ctx.caller.roles?.role(id)?.name ?? id),
        `\n\n${t('subscribe.recreate')}\n`,
        { code: toSubscribeLine(filters) },
      ],
      footer: t('subscribe.footer'),
      colour: 'up',
    };
  },
} satisfies Command<typeof options>;

/** What the card says of the ping and publishing, when set. */
function postingLines(p: DestinationPosting | undefined, t: T, roleName: (id: string) => string): string[] {
  return [
    ...(p?.pingRole ? [`\n${t('destinations.pinging', { role: roleName(p.pingRole) })}`] : []),
    ...(p?.publish ? [`\n${t('destinations.publishing')}`] : []),
    ...(p?.forum ? [`\n${t('destinations.forumPosts')}`] : []),
  ];
}
