import type { ProjectItem } from '../src/api/index.ts';
import type { Command } from '../src/core/command.ts';
import { cursorActions } from '../src/views/cards/paging.ts';
import { formats } from '../src/i18n/format.ts';
import { languageOf, type T } from '../src/i18n/index.ts';
import type { Rich } from '../src/domain/view.ts';
import { back, callOpts, checkBounds, cursor, limit, range } from './_options.ts';

const EXAMPLE = '/projects min_followers:10k limit:10';
/** Smart followers named per project under the table. */
const NAMED = 3;

const options = {
  ...range('followers', { min: 0 }),
  ...range('following', { min: 0 }),
  limit: limit(10, 25),
  cursor: cursor(),
  back: back(),
};

function note(p: ProjectItem, t: T): Rich {
  const { compact } = formats(languageOf(t));
  const names = p.smart_follower.slice(0, NAMED).map((s) => `@${s.username}`);
  const more = p.smart_follower_count > names.length ? ` +${compact(p.smart_follower_count - names.length)}` : '';
  return [
    { b: `@${p.username}` },
    ` ${names.length ? t('projects.followedBy', { names: `${names.join(', ')}${more}` }) : t('projects.noneListed')}`,
  ];
}

export default {
  name: 'projects',
  options,
  examples: [EXAMPLE, '/projects', '/projects max_followers:50k'],
  async run(input, ctx) {
    checkBounds(input, EXAMPLE);
    const res = await ctx.api.getKolProjects(
      {
        limit: input.limit ?? 10,
        cursor: input.cursor,
        minFollowers: input.min_followers,
        maxFollowers: input.max_followers,
        minFollowing: input.min_following,
        maxFollowing: input.max_following,
      },
      callOpts(ctx),
    );
    const t = ctx.t;
    const { compact, pct } = formats(ctx.locale);
    return {
      kind: 'table',
      title: t('projects.title'),
      ...(res.items.length ? {} : { description: input.cursor ? t('projects.noMore') : t('projects.none') }),
      columns: [
        { key: 'who', label: t('columns.account') },
        { key: 'smart', label: t('columns.smartF'), align: 'right' },
        { key: 'followers', label: t('columns.followers'), align: 'right' },
        { key: 'change', label: t('columns.change'), align: 'right' },
      ],
      rows: res.items.map((p) => ({
        who: `@${p.username}`,
        smart: compact(p.smart_follower_count),
        followers: compact(p.follower_count),
        change: pct(p.change_percent, 'percent', { sign: true }),
      })),
      notes: res.items.map((p) => note(p, t)),
      actions: cursorActions('projects', input, { cursor: input.cursor, back: input.back, next: res.next_cursor }, t),
    };
  },
} satisfies Command<typeof options>;
