/**
 * `/settings`: one panel of buttons for every chat setting. Each press runs the
 * command that owns the setting with the options a typed line would give it
 * (src/alerts/settings.ts defines both), so a panel change is saved at once, is
 * checked as the typed option is, and stores exactly what typing would.
 */
import {
  CONTROLS,
  controlById,
  type LANGUAGE_CODES,
  PAGES,
  PRESETS,
  type Control,
  type Page,
  type Preset,
  SETTING_OPTIONS,
} from '../src/alerts/settings.ts';
import { DEFAULT_FILTERS, describeFilters, filterValues } from '../src/alerts/filters.ts';
import { turnsOf } from '../src/alerts/subscriptions.ts';
import { followupsOf } from '../src/alerts/calls/record.ts';
import { autoCardSettings, cooldownText } from '../src/core/autocard.ts';
import { boardOf } from '../src/core/membercalls.ts';
import type { Command, CommandContext, RawArgs } from '../src/core/command.ts';
import { UserError } from '../src/core/errors.ts';
import { chatLocale } from '../src/core/language.ts';
import { opt } from '../src/core/options.ts';
import { validate } from '../src/core/parse.ts';
import { CHAIN_LABEL, isChainId } from '../src/domain/chains.ts';
import { clockText } from '../src/domain/zoned.ts';
import type { Action, Ask, CardView, Span } from '../src/domain/view.ts';
import { formats } from '../src/i18n/format.ts';
import { CATALOGUES, optionText, translator, type Locale, type T } from '../src/i18n/index.ts';
import type { Subscription, SubscriptionStore } from '../src/store/subscriptions.ts';
import { followupsSetting } from '../src/views/cards/callLine.ts';
import { destinationOf } from './_subscription.ts';
import { actingFor, keepWhere, linkInstead } from './_where.ts';

const DAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];

const options = {
  page: opt.choice([...PAGES, 'done'], { internal: true }),
  set: opt.string({ max: 32, internal: true }),
  value: opt.string({ max: 2000, internal: true }),
  preset: opt.choice(['early', 'balanced', 'best'], { internal: true }),
  apply: opt.boolean({ internal: true }),
  here: opt.boolean({ internal: true }),
  for: opt.string({ pattern: /^-?\d{1,20}$/, internal: true }),
  thread: opt.string({ pattern: /^\d{1,12}$/, internal: true }),
};

interface State {
  readonly sub: Subscription | undefined;
  readonly language: Locale | undefined;
  readonly auto: { readonly enabled: boolean; readonly cooldownMs: number };
  /** Members' call board of the chat (its topics share it). */
  readonly board: boolean;
  /** The community page's address (/web), when it is on and pages are served. */
  readonly web: string | undefined;
}

async function readState(ctx: CommandContext): Promise<State> {
  const { platform, chatId, threadId } = ctx.caller;
  const [sub, language, auto, board, page] = await Promise.all([
    ctx.store.subscriptions.get(destinationOf(ctx).id),
    ctx.store.languages.get(platform, chatId, threadId),
    autoCardSettings(ctx.store).get(platform, chatId, threadId),
    ctx.store.members.settings(boardOf(platform, chatId)),
    ctx.store.web.ofChat(platform, chatId),
  ]);
  const base = ctx.webUrl?.();
  const web = page && base ? `${base}/c/${page.slug}` : undefined;
  return { sub: sub ?? undefined, language: language ?? undefined, auto, board: board.on, web };
}

const quietRange = (sub: Subscription | undefined) =>
  sub?.quiet ? `${clockText(sub.quiet.from)}-${clockText(sub.quiet.to)}` : undefined;

/** An option's current value as it would be typed: what a modal or forced reply starts from. */
function current(c: Control & { kind: 'ask' }, s: State): string {
  const sub = s.sub;
  if (c.command === 'subscribe')
    return filterValues(sub?.filters ?? DEFAULT_FILTERS)[c.option as keyof ReturnType<typeof filterValues>];
  if (c.id === 'quiet') return quietRange(sub) ?? '';
  if (c.id === 'quietTz') return sub?.quiet?.tz ?? 'UTC';
  if (c.id === 'at') return clockText(sub?.digest?.at ?? 9 * 60);
  if (c.id === 'day') return DAYS[sub?.digest?.day ?? 1]!;
  if (c.id === 'digestTz') return sub?.digest?.tz ?? 'UTC';
  if (c.id === 'autoCooldown') return cooldownText(s.auto.cooldownMs);
  return '';
}

/** Values a typed line must carry beside the asked one (`/digest <period> at:…`). */
function kept(c: Control & { kind: 'ask' }, s: State): RawArgs {
  if (c.keep === 'period') return { period: s.sub?.digest?.period ?? 'daily' };
  if (c.keep === 'duration') {
    const range = quietRange(s.sub);
    return range ? { duration: range } : {};
  }
  return {};
}

/** A list option after one value is pressed: added, or removed (all of them when none is left). */
function toggled(c: Control & { kind: 'toggle' }, s: State, value: string): string {
  const f = s.sub?.filters;
  const now = (c.option === 'chains' ? f?.chains : f?.tweetTypes) ?? [];
  const on = now.length ? now : c.values;
  const next = on.includes(value) ? on.filter((v) => v !== value) : [...on, value];
  return (next.length ? c.values.filter((v) => next.includes(v)) : c.values).join(',');
}

/** The typed options a press stands for. */
function rawFor(c: Control, s: State, value: string | undefined, t: T): RawArgs {
  if (c.kind === 'set') return { ...c.raw };
  if (value === undefined) throw new UserError(t('settings.needsValue'), '/settings');
  if (c.kind === 'toggle') {
    if (!c.values.includes(value)) throw new UserError(t('errors.buttonsExpired'), '/settings');
    return { [c.option]: toggled(c, s, value) };
  }
  return { ...c.raw, ...kept(c, s), [c.option]: value };
}

/**
 * Runs the owning command as if typed; its own answer is the note over the panel. The
 * options are made from the settings read inside the destination's turn (a toggle's new
 * list from the list as it is now): read before it, two admins toggling two chains at
 * once both computed from the same list and the second write lost the first's chain.
 * The command changes the very subscription read here (its version included): if another
 * instance wrote it since, the write is refused and the press runs again (core/run.ts).
 */
async function change(ctx: CommandContext, rawOf: (s: State) => RawArgs, name: string): Promise<Span[]> {
  const command = ctx.commands.get(name);
  if (!command) throw new UserError(ctx.t('errors.buttonsExpired'), '/settings');
  const id = destinationOf(ctx).id;
  const subs = ctx.store.subscriptions;
  const view = await turnsOf(subs)(id, async () => {
    const s = await readState(ctx);
    const read: SubscriptionStore = { ...subs, get: (x) => (x === id ? Promise.resolve(s.sub) : subs.get(x)) };
    return command.run(validate(command, rawOf(s)), { ...ctx, store: { ...ctx.store, subscriptions: read } });
  });
  const said = view.kind === 'text' ? view.text : view.kind === 'card' ? view.title : '';
  return typeof said === 'string' ? [said] : [...said];
}

export default {
  name: 'settings',
  options,
  chatSettings: true,
  requires: 'manage',
  examples: ['/settings'],
  async run(o, asked) {
    const first = o.page === undefined && o.set === undefined && o.preset === undefined;
    const link = await linkInstead(asked, o, first);
    if (link) return link;
    const ctx = await actingFor(asked, o);
    let t = ctx.t;
    let note: Span[] = [];
    let page: Page | 'done' = o.page ?? 'main';
    if (o.set !== undefined) {
      const c = controlById(o.set);
      if (!c) throw new UserError(t('errors.buttonsExpired'), '/settings');
      note = await change(ctx, (s) => rawFor(c, s, o.value, t), c.command);
      // A new language shows at once, on the panel too (a private panel keeps the admin's own).
      if (c.command === 'language' && o.for === undefined)
        t = translator(await chatLocale(ctx.store.languages, ctx.caller, () => {}));
    } else if (o.preset !== undefined && o.apply) {
      note = await change(ctx, () => ({ ...PRESETS[o.preset!] }), 'subscribe');
      page = 'main';
    }
    const state = await readState(ctx);
    return keepWhere(panel(ctx, t, state, page, o.preset, note), o);
  },
} satisfies Command<typeof options>;

function panel(
  ctx: CommandContext,
  t: T,
  s: State,
  page: Page | 'done',
  preset: Preset | undefined,
  note: Span[],
): CardView {
  const description: Span[] = [
    ...(note.length
      ? [{ b: note.map((x) => (typeof x === 'string' ? x : 'code' in x ? x.code : '')).join('') }, '\n\n']
      : []),
    ...summary(ctx, t, s).join('\n'),
  ];
  if (page === 'done')
    return { kind: 'card', title: t('settings.title'), description, footer: t('settings.closed'), colour: 'neutral' };
  if (page === 'presets' && preset) description.push('\n\n', ...presetLines(t, preset));
  return {
    kind: 'card',
    title: page === 'main' ? t('settings.title') : `${t('settings.title')} · ${t(`settings.button.${page}`)}`,
    description,
    footer: t('settings.hint'),
    colour: 'brand',
    actions: buttons(ctx, t, s, page, preset),
  };
}

function summary(ctx: CommandContext, t: T, s: State): string[] {
  const sub = s.sub;
  const f = formats(ctx.locale);
  const status =
    !sub || sub.disabled
      ? t('settings.alertsOff')
      : sub.pausedUntil !== null && sub.pausedUntil > ctx.now()
        ? t('settings.alertsPaused')
        : t('settings.alertsOn');
  const lines = [status];
  if (sub && !sub.disabled) {
    lines.push(...describeFilters(sub.filters, t), followupsSetting(followupsOf(sub), t, f));
    const range = quietRange(sub);
    lines.push(range ? t('settings.quietLine', { range, tz: sub.quiet!.tz }) : t('settings.quietNone'));
    const d = sub.digest;
    lines.push(
      d
        ? t(d.period === 'daily' ? 'settings.digestDaily' : 'settings.digestWeekly', {
            at: clockText(d.at),
            tz: d.tz,
            day: DAYS[d.day] ?? '',
          })
        : t('settings.digestNone'),
    );
  }
  const lang = s.language ? CATALOGUES[s.language].language.name : t('settings.languageAuto');
  lines.push(t('settings.languageLine', { language: lang }));
  lines.push(
    s.auto.enabled
      ? t('settings.autocardOn', { cooldown: cooldownText(s.auto.cooldownMs) })
      : t('settings.autocardOff'),
  );
  lines.push(t(s.board ? 'settings.boardOnLine' : 'settings.boardOffLine'));
  lines.push(s.web ? t('settings.webOnLine', { url: s.web }) : t('settings.webOffLine'));
  return lines;
}

function presetLines(t: T, preset: Preset): Span[] {
  const lines = Object.entries(PRESETS[preset]).flatMap(([k, v]): Span[] => [
    '\n• ',
    optionText(t, 'subscribe', k),
    ': ',
    { code: v },
  ]);
  return [
    { b: t(`settings.preset.${preset}`) },
    ' ',
    t(`settings.presetAbout.${preset}`),
    `\n${t('settings.presetSets')}`,
    ...lines,
  ];
}

const nav = (label: string, page: Page | 'done', more: Record<string, unknown> = {}): Action => ({
  label,
  command: 'settings',
  options: { page, ...more },
});

/** What a value button asks, in the reader's language. */
function askOf(t: T, c: Control & { kind: 'ask' }, s: State): Ask {
  const spec = (SETTING_OPTIONS[c.command] as Record<string, { spec: { example?: string } }>)[c.option]!.spec;
  const example = c.id === 'quiet' ? '23:00-07:00' : (spec.example ?? '');
  return {
    title: t(`settings.button.${c.id}` as never),
    label: t('settings.askLabel'),
    value: current(c, s),
    example,
    hint: optionText(t, c.command, c.option),
  };
}

/** The alerts page offers what applies now: turn on when off, pause when on, resume when paused. */
function applies(c: Control, s: State, now: number): boolean {
  if (c.page !== 'alerts') return true;
  const on = s.sub !== undefined && !s.sub.disabled;
  const paused = on && s.sub!.pausedUntil !== null && s.sub!.pausedUntil > now;
  if (c.id === 'on') return !on;
  if (c.id === 'resume') return paused;
  if (c.id === 'pause' || c.id === 'pauseFor') return on && !paused;
  return on;
}

function controlButtons(ctx: CommandContext, t: T, s: State, page: Page): Action[] {
  const now = ctx.now();
  return CONTROLS.filter((c) => c.page === page && applies(c, s, now)).flatMap((c): Action[] => {
    if (c.kind === 'toggle') {
      const on = (c.option === 'chains' ? s.sub?.filters.chains : s.sub?.filters.tweetTypes) ?? [];
      return c.values.map((v) => ({
        label: `${!on.length || on.includes(v as never) ? '✅' : '▫️'} ${isChainId(v) ? CHAIN_LABEL[v] : t(`settings.type.${v}` as never)}`,
        command: 'settings',
        options: { page, set: c.id, value: v },
        pick: t(`settings.button.${c.id === 'chains' ? 'chains' : 'types'}`),
      }));
    }
    const label = c.id.startsWith('lang:') ? langLabel(t, c.id.slice(5)) : t(`settings.button.${c.id}` as never);
    if (c.kind === 'set') {
      const code = c.id.startsWith('lang:') ? c.id.slice(5) : undefined;
      // The languages are one choice: a select menu where the platform has one.
      const pick = code ? { pick: t('settings.button.language'), chosen: code === (s.language ?? 'auto') } : {};
      return [{ label, command: 'settings', options: { page, set: c.id }, ...pick }];
    }
    return [{ label: `${label}…`, command: 'settings', options: { page, set: c.id }, ask: askOf(t, c, s) }];
  });
}

function langLabel(t: T, code: string): string {
  if (code === 'auto') return t('settings.button.languageAuto');
  return CATALOGUES[code as (typeof LANGUAGE_CODES)[number]].language.name;
}

/** The main page opens every other page, in the definition's order. */
const MAIN = PAGES.filter((p): p is Exclude<Page, 'main'> => p !== 'main');

function buttons(ctx: CommandContext, t: T, s: State, page: Page, preset: Preset | undefined): Action[] {
  const back = nav(t('settings.button.back'), 'main');
  if (page === 'main')
    return [
      ...MAIN.map((p) => nav(t(`settings.button.${p}`), p)),
      ...controlButtons(ctx, t, s, 'main'),
      { ...nav(t('settings.button.done'), 'done'), style: 'primary' },
    ];
  if (page === 'presets') {
    if (preset)
      return [
        { ...nav(t('settings.button.apply'), 'main', { preset, apply: true }), style: 'primary' },
        nav(t('settings.button.presets'), 'presets'),
        back,
      ];
    return [
      ...(Object.keys(PRESETS) as Preset[]).map((p) => nav(t(`settings.preset.${p}`), 'presets', { preset: p })),
      back,
    ];
  }
  return [...controlButtons(ctx, t, s, page), back];
}
