/**
 * The three pages of a community: the board (/c/<slug>), one call
 * (/c/<slug>/call/<id>) and one member (/c/<slug>/member/<name>). Their
 * figures are the chat commands' answers (context.ts runs /lb, /calls and
 * /stats) or, for one call, the call card's own figures (callCardInput, the
 * PNG's words); the page only lays them out.
 */
import { scoreCall } from '../domain/score.ts';
import { DEFAULT_LINKS, tokenLinks } from '../domain/links.ts';
import type { View } from '../domain/view.ts';
import type { Locale, T } from '../i18n/index.ts';
import { formats } from '../i18n/format.ts';
import type { Call } from '../store/calls.ts';
import { subscriptionId } from '../store/subscriptions.ts';
import type { WebPage } from '../store/web.ts';
import { multiple } from '../views/cards/callLine.ts';
import { ticker } from '../views/cards/common.ts';
import { callCardInput } from '../views/cards/memberCalls.ts';
import { chartPoints, followupChart } from './chart.ts';
import type { Runner, WebDeps } from './context.ts';
import { h, rich, table, type Head, type Html } from './html.ts';

export const PERIODS = ['24h', '7d', '30d', 'all'] as const;
export type Period = (typeof PERIODS)[number];
export const RANKINGS = ['call', 'kol'] as const;
export type Ranking = (typeof RANKINGS)[number];
/** /lb names the day 1d; /calls 24h (both take either). */
const LB_PERIOD: Readonly<Record<Period, string>> = { '24h': '1d', '7d': '7d', '30d': '30d', all: 'all' };
/** Alerts listed under "Latest alerts". */
const LATEST = 10;
const LATEST_FROM_MS = 30 * 86_400_000;

export interface Community {
  readonly page: WebPage;
  readonly locale: Locale;
  readonly t: T;
  /** Absolute base of the community's pages: WEB_URL + /c/<slug>. */
  readonly home: string;
  /** The same, as a path: links inside the site stay relative to the host they were read on. */
  readonly path: string;
}

export interface Built {
  readonly head: Head;
  readonly body: Html;
  /** The board's address, for the "back" link (absent on the board). */
  readonly home?: string;
}

export const communityName = (c: Community): string =>
  c.page.platform === 'console' ? c.t('web.demo') : (c.page.name ?? c.t('web.community'));

const memberPath = (c: Community, name: string) => `${c.path}/member/${encodeURIComponent(name.replace(/^@/, ''))}`;
const callPath = (c: Community, id: string) => `${c.path}/call/${encodeURIComponent(id)}`;

/** A command's answer as a section: its table, or its one line when it has none (nothing ranked yet). */
function answer(
  view: View,
  o: { id: string; heading?: string; link?: (row: Readonly<Record<string, string>>) => string | undefined },
): Html {
  if (view.kind === 'table')
    return h`${view.description ? h`<p class="desc" dir="auto">${rich(view.description)}</p>` : ''}
${table(view, { id: o.id, ...(o.heading ? { caption: o.heading } : {}), ...(o.link ? { link: o.link } : {}) })}
${(view.notes ?? []).map((n) => h`<p class="note">${rich(n)}</p>`)}
${view.footer ? h`<p class="note">${view.footer}</p>` : ''}`;
  const text = view.kind === 'text' ? view.text : view.kind === 'error' ? view.message : view.title;
  return h`<p class="empty" id="${o.id}" data-rows="0" dir="auto">${rich(text)}</p>`;
}

/** Links that switch one choice and keep the others: the page reads the same with or without script. */
function switcher<V extends string>(
  label: string,
  name: string,
  values: readonly V[],
  current: V,
  href: (v: V) => string,
  words: (v: V) => string,
): Html {
  return h`<nav class="switch" aria-label="${label}" data-switch="${name}"><span>${label}:</span>
${values.map((v) => (v === current ? h`<a href="${href(v)}" aria-current="page" data-value="${v}">${words(v)}</a>` : h`<a href="${href(v)}" data-value="${v}">${words(v)}</a>`))}
</nav>`;
}

export async function boardPage(
  r: Runner,
  d: WebDeps,
  c: Community,
  q: { period: Period; by: Ranking },
): Promise<Built> {
  const { t, page } = c;
  const name = communityName(c);
  const [lb, calls, latest] = await Promise.all([
    r.run('lb', { period: LB_PERIOD[q.period], sort: 'hit' }, page, c.locale, t),
    r.run('calls', { period: q.period, by: q.by, sort: 'best' }, page, c.locale, t),
    d.store.calls.list(subscriptionId(page.platform as Call['platform'], page.chatId), d.now() - LATEST_FROM_MS),
  ]);
  const f = formats(c.locale);
  const now = d.now();
  const recent = latest.slice(-LATEST).reverse();
  const periodWord = (p: Period) => (p === 'all' ? t('calls.periodAll') : p);
  const href = (o: { period?: Period; by?: Ranking }) => {
    const s = new URLSearchParams({ period: o.period ?? q.period, by: o.by ?? q.by });
    return `${c.path}?${s}`;
  };
  const body = h`<header><h1 dir="auto">${name}</h1><p>${t('web.intro')}</p>
${switcher(t('web.period'), 'period', PERIODS, q.period, (p) => href({ period: p }), periodWord)}</header>
<section aria-labelledby="h-board"><h2 id="h-board">${t('web.boardHeading')}</h2>
${answer(lb, { id: 'board', heading: lb.kind === 'table' ? lb.title : t('web.boardHeading'), link: (row) => (row['member'] ? memberPath(c, row['member']) : undefined) })}
</section>
<section aria-labelledby="h-calls"><h2 id="h-calls">${t('web.callsHeading')}</h2>
${switcher(
  t('web.callsHeading'),
  'by',
  RANKINGS,
  q.by,
  (b) => href({ by: b }),
  (b) => (b === 'call' ? t('web.byCall') : t('web.byKol')),
)}
${answer(calls, { id: q.by === 'kol' ? 'calls-by-kol' : 'calls-by-call', heading: calls.kind === 'table' ? calls.title : t('web.callsHeading') })}
</section>
<section aria-labelledby="h-latest"><h2 id="h-latest">${t('web.latestHeading')}</h2>
${
  recent.length
    ? h`<div class="scroll"><table id="latest" data-rows="${recent.length}"><caption>${t('web.latestHeading')}</caption>
<thead><tr><th scope="col" data-col="token">${t('web.colToken')}</th><th scope="col" data-col="kol">${t('web.colKol')}</th><th scope="col" class="num" data-col="since">${t('web.colSince')}</th><th scope="col" data-col="when">${t('web.colWhen')}</th></tr></thead>
<tbody>${recent.map((x) => {
        const s = scoreCall(x);
        return h`<tr data-call="${x.id}"><th scope="row" dir="auto" data-col="token"><a href="${callPath(c, x.id)}">${ticker(x.token.symbol, x.token.name)}</a></th>
<td dir="auto" data-col="kol">${x.kols.map((k) => `@${k}`).join(', ') || x.member?.name || '-'}</td>
<td class="num" data-col="since">${multiple(s.now, f)}</td><td data-col="when">${f.timeAgo(x.at, now)}</td></tr>`;
      })}</tbody></table></div>`
    : h`<p class="empty" id="latest" data-rows="0">${t('web.latestNone')}</p>`
}
</section>`;
  const best = latest.at(-1);
  return {
    head: {
      title: t('web.title', { name }),
      description: t('web.previewBoard', { name }),
      url: `${c.home}`,
      // The newest call's card: a board link unfurls as a picture with figures too.
      ...(best
        ? {
            image: {
              url: `${c.home}/call/${encodeURIComponent(best.id)}/card.png`,
              alt: t('web.previewBoard', { name }),
            },
          }
        : {}),
    },
    body,
  };
}

/** Who made the call, as people read it: the member, else the KOLs its alert named. */
const whoCalled = (x: Call): string => x.member?.name ?? (x.kols.map((k) => `@${k}`).join(', ') || '?');

/** The community's call `id`, or undefined: another community's call is not found here. */
export async function communityCall(d: WebDeps, page: WebPage, id: string): Promise<Call | undefined> {
  const x = await d.store.calls.get(id);
  return x && x.platform === page.platform && x.chatId === page.chatId ? x : undefined;
}

export function callPage(d: WebDeps, c: Community, x: Call): Built {
  const { t } = c;
  const f = formats(c.locale);
  const now = d.now();
  const card = callCardInput(x, t, now);
  const who = whoCalled(x);
  const symbol = ticker(x.token.symbol, x.token.name);
  const [capThen, peak, since] = card.boxes;
  const points = chartPoints(x);
  const alt = t('web.chartAlt', {
    from: f.usd(x.marketCap),
    to: f.usd(points.at(-1)?.marketCap),
    points: f.int(points.length),
    peak: peak?.value ?? '-',
  });
  const links = tokenLinks(d.links ?? DEFAULT_LINKS, x.token.chain, x.token.address);
  const whoLink = x.member ? h`<a href="${memberPath(c, x.member.name)}">${who}</a>` : h`${who}`;
  const body = h`<header><p><a href="${c.path}">${communityName(c)}</a></p>
<h1 dir="auto">${t('web.callHeading', { symbol, who })}</h1><p dir="auto">${card.title}</p></header>
<section aria-labelledby="h-figures"><h2 id="h-figures" class="visually-hidden">${symbol}</h2>
<dl class="figures" id="call-figures" data-call="${x.id}">
<div><dt>${t('web.calledBy')}</dt><dd dir="auto" data-fig="who">${whoLink}</dd></div>
<div><dt>${t('web.calledAt')}</dt><dd data-fig="when"><time datetime="${new Date(x.at).toISOString()}">${f.timeAgo(x.at, now)}</time></dd></div>
<div><dt>${t('web.capThen')}</dt><dd data-fig="cap">${capThen?.value ?? '-'}</dd></div>
<div><dt>${t('web.since')}</dt><dd data-fig="multiple" class="trend-${card.trend}">${card.multiple}</dd></div>
<div><dt>${t('web.peak')}</dt><dd data-fig="peak">${peak?.value ?? '-'} <span class="sub">${peak?.sub ?? ''}</span></dd></div>
<div><dt>${since?.label ?? ''}</dt><dd data-fig="now">${since?.value ?? '-'} <span class="sub">${since?.sub ?? ''}</span></dd></div>
</dl></section>
<section aria-labelledby="h-chart"><h2 id="h-chart">${t('web.chartHeading')}</h2>
${
  points.length >= 2
    ? h`<figure>${followupChart(points, t('web.chartHeading'), alt)}<figcaption>${alt}</figcaption></figure>`
    : h`<p class="empty" id="call-chart" data-points="${points.length}">${t('web.chartNone')}</p>`
}
</section>
${links.length ? h`<section aria-labelledby="h-links"><h2 id="h-links">${t('web.links')}</h2><ul class="links">${links.map((l) => h`<li><a href="${l.url}" rel="nofollow noopener">${l.label}</a></li>`)}</ul></section>` : ''}`;
  return {
    head: {
      title: t('web.title', { name: t('web.callHeading', { symbol, who }) }),
      description: t('web.previewCall', { symbol, who, multiple: card.multiple, peak: peak?.value ?? '-' }),
      url: `${c.home}/call/${encodeURIComponent(x.id)}`,
      image: { url: `${c.home}/call/${encodeURIComponent(x.id)}/card.png`, alt },
    },
    body,
    home: c.path,
  };
}

/** A member's page: /stats for them, or undefined when the board has no such member (or they forgot their calls). */
export async function memberPage(r: Runner, d: WebDeps, c: Community, name: string): Promise<Built | undefined> {
  const { t, page } = c;
  const view = await r.run('stats', { member: name, period: 'all' }, page, c.locale, t);
  if (view.kind !== 'table') return undefined;
  const who = name.replace(/^@/, '').toLowerCase();
  // The calls /stats lists, newest first, each with its page (the rows carry no ids).
  const mine = (await d.store.members.list(subscriptionId(page.platform as Call['platform'], page.chatId), 0))
    .filter((x) => x.member && (x.member.handle === who || x.member.name.replace(/^@/, '').toLowerCase() === who))
    .reverse()
    .slice(0, view.rows.length);
  return {
    head: {
      title: t('web.title', { name: view.title }),
      description: typeof view.description === 'string' ? view.description : view.title,
      url: `${c.home}/member/${encodeURIComponent(name)}`,
    },
    body: h`<header><p><a href="${c.path}">${communityName(c)}</a></p><h1 dir="auto">${view.title}</h1></header>
<section aria-labelledby="h-stats"><h2 id="h-stats" class="visually-hidden">${t('web.member')}</h2>
${answer(view, { id: 'stats' })}
${mine.length ? h`<ul class="links" id="member-calls">${mine.map((x) => h`<li><a href="${callPath(c, x.id)}">${t('web.callPage')}: ${ticker(x.token.symbol, x.token.name)}</a></li>`)}</ul>` : ''}
</section>`,
    home: c.path,
  };
}
