/**
 * Every chat setting, in one place: what it is (the typed option: name, type,
 * limits, example; its description in every language lives in the catalogue
 * under `options.<command>.<option>`) and how the `/settings` panel sets it.
 * `/subscribe`, `/alerts`, `/digest`, `/autocard` and `/language` take their
 * options from here, and the panel's controls name those same options, so a
 * panel press runs exactly what the typed option runs: no second list of settings
 * (test/commands/settings.test.ts checks that every option has a control).
 */
import { CHAINS } from '../domain/chains.ts';
import { opt } from '../core/options.ts';
import { KEYWORD } from './rules.ts';
import { DEFAULT_FILTERS } from './filters.ts';

const username = opt.string({ pattern: /^@?[A-Za-z0-9_]{1,15}$/, hint: 'usernames' });
const keyword = opt.string({ pattern: KEYWORD, hint: 'keywords' });

/** Tweet types the feed names (the panel toggles these; typed text may name others). */
export const TWEET_TYPES = ['tweet', 'reply', 'quote', 'retweet'] as const;

const subscribe = {
  chains: opt.list(opt.chain({}), {
    example: 'solana,base',
  }),
  token_score: opt.number({
    min: 0,
    max: 100,
    example: '80',
  }),
  kol_score: opt.number({
    min: 0,
    max: 100,
    example: '65',
  }),
  followers: opt.integer({
    min: 0,
    max: 1_000_000_000,
    example: '25k',
  }),
  labels: opt.list(opt.string({ pattern: /^[\w -]{1,40}$/, hint: 'words' }), {
    max: 20,
    example: 'alpha,degen',
  }),
  types: opt.list(opt.string({ pattern: /^[a-z_]{1,20}$/i, hint: 'tweetTypes' }), {
    max: 10,
    example: 'tweet,quote',
  }),
  only: opt.list(username, { max: 100, example: '@cobie,@ansem' }),
  except: opt.list(username, { max: 100, example: '@cobie,@ansem' }),
  cooldown: opt.integer({
    min: 0,
    max: 10_080,
    example: '30',
  }),
  followups: opt.string({ example: '1h,24h' }),
  min_mcap: opt.number({
    min: 0,
    example: '100k',
  }),
  max_mcap: opt.number({
    min: 0,
    example: '50m',
  }),
  min_liquidity: opt.number({
    min: 0,
    example: '25k',
  }),
  max_age: opt.string({ example: '3d' }),
  keywords: opt.list(keyword, {
    max: 50,
    example: 'airdrop,$wif',
  }),
  block: opt.list(keyword, {
    max: 50,
    example: 'rug,scam',
  }),
};

const alerts = {
  action: opt.choice(['show', 'pause', 'resume', 'test', 'quiet'], {
    positional: true,
    noun: 'action',
  }),
  duration: opt.string({
    positional: true,
    example: '2h',
  }),
  tz: opt.string({ example: 'Europe/Berlin', max: 64 }),
};

const digest = {
  period: opt.choice(['daily', 'weekly', 'off', 'now'], {
    positional: true,
    noun: 'period',
    required: true,
  }),
  at: opt.string({ example: '09:00', max: 5 }),
  tz: opt.string({ example: 'Europe/Berlin', max: 64 }),
  day: opt.string({ example: 'mon', max: 9 }),
};

const autocard = {
  mode: opt.choice(['on', 'off'] as const, {
    noun: 'mode',
    positional: true,
  }),
  cooldown: opt.string({
    max: 10,
    example: '10m',
  }),
};

const callboard = {
  action: opt.choice(['on', 'off', 'forget', 'remove', 'reset'], {
    noun: 'action',
    positional: true,
  }),
  token: opt.string({
    max: 200,
    example: '$PEPE',
  }),
};

/** /web: the community's public page (the panel turns it on under a random name, or a name typed). */
const web = {
  action: opt.choice(['on', 'off'], {
    positional: true,
    noun: 'action',
  }),
  // Any text here, checked by /web: a refusal that shows the rule reads better than the option parser's.
  slug: opt.string({
    positional: true,
    max: 64,
    example: 'alpha-club',
  }),
};

const language = {
  // Free text rather than choices: 'pt-br', 'zh-CN' or 'Ru' are all understood.
  code: opt.string({
    positional: true,
    max: 35,
    example: 'ru',
  }),
};

/** The typed options of the settings commands, by command. */
export const SETTING_OPTIONS = { subscribe, alerts, digest, autocard, callboard, web, language } as const;

/**
 * Where and how `/subscribe` posts, beside its filters: not panel settings (a role or a
 * channel's kind is picked where the platform has them: Discord roles, announcement channels).
 */
export const POSTING_OPTIONS = {
  ping: opt.role({ example: '@traders' }),
  ping_summaries: opt.boolean({
    example: 'true',
  }),
  publish: opt.boolean({ example: 'true' }),
  tag: opt.string({ max: 20, example: 'alerts' }),
};

export type SettingCommand = keyof typeof SETTING_OPTIONS;

/** The panel's pages; `main` lists the others. */
export const PAGES = [
  'main',
  'alerts',
  'presets',
  'filters',
  'chains',
  'types',
  'kols',
  'quiet',
  'digest',
  'language',
  'autocard',
] as const;
export type Page = (typeof PAGES)[number];

type OptionOf<C extends SettingCommand> = keyof (typeof SETTING_OPTIONS)[C] & string;
type Raw = Readonly<Record<string, string>>;

/**
 * One control of the panel, and the typed option it sets: a pressed control
 * runs its command with exactly those options, as if they had been typed.
 * - `ask`: a value typed into a modal or a forced reply goes to `option`;
 * - `set`: the button sends fixed options (`raw`);
 * - `toggle`: one button per value of a list option, each adding or removing it.
 * `raw` options go with every press; `keep` options are the current value of
 * another option the command needs alongside (a digest's period, quiet hours' range).
 */
export type Control = {
  [C in SettingCommand]:
    | { kind: 'ask'; id: string; page: Page; command: C; option: OptionOf<C>; raw?: Raw; keep?: OptionOf<C> }
    | { kind: 'set'; id: string; page: Page; command: C; raw: Partial<Record<OptionOf<C>, string>> }
    | { kind: 'toggle'; id: string; page: Page; command: C; option: OptionOf<C>; values: readonly string[] };
}[SettingCommand];

const ask = <C extends SettingCommand>(
  page: Page,
  command: C,
  option: OptionOf<C>,
  more: { id?: string; raw?: Raw; keep?: OptionOf<C> } = {},
): Control => ({ kind: 'ask', id: more.id ?? option, page, command, option, ...more }) as Control;
const set = <C extends SettingCommand>(
  page: Page,
  command: C,
  id: string,
  raw: Partial<Record<OptionOf<C>, string>>,
): Control => ({ kind: 'set', id, page, command, raw }) as Control;

export const LANGUAGE_CODES = ['en', 'zh', 'ru', 'es', 'pt-BR', 'tr', 'vi', 'ko'] as const;

/** Every control, by page, in the order shown. Ids are short: they travel in button state. */
export const CONTROLS: readonly Control[] = [
  set('alerts', 'subscribe', 'on', {}),
  set('alerts', 'alerts', 'pause', { action: 'pause' }),
  ask('alerts', 'alerts', 'duration', { id: 'pauseFor', raw: { action: 'pause' } }),
  set('alerts', 'alerts', 'resume', { action: 'resume' }),
  set('alerts', 'alerts', 'test', { action: 'test' }),
  ...(
    ['token_score', 'kol_score', 'followers', 'cooldown', 'min_mcap', 'max_mcap', 'min_liquidity', 'max_age'] as const
  ).map((o) => ask('filters', 'subscribe', o)),
  ask('filters', 'subscribe', 'keywords'),
  ask('filters', 'subscribe', 'block'),
  { kind: 'toggle', id: 'chains', page: 'chains', command: 'subscribe', option: 'chains', values: CHAINS },
  { kind: 'toggle', id: 'types', page: 'types', command: 'subscribe', option: 'types', values: TWEET_TYPES },
  ask('kols', 'subscribe', 'only'),
  ask('kols', 'subscribe', 'except'),
  ask('kols', 'subscribe', 'labels'),
  ask('main', 'subscribe', 'followups'),
  ask('quiet', 'alerts', 'duration', { id: 'quiet', raw: { action: 'quiet' } }),
  ask('quiet', 'alerts', 'tz', { id: 'quietTz', raw: { action: 'quiet' }, keep: 'duration' }),
  set('quiet', 'alerts', 'quietOff', { action: 'quiet', duration: 'off' }),
  set('digest', 'digest', 'daily', { period: 'daily' }),
  set('digest', 'digest', 'weekly', { period: 'weekly' }),
  set('digest', 'digest', 'digestOff', { period: 'off' }),
  set('digest', 'digest', 'digestNow', { period: 'now' }),
  ask('digest', 'digest', 'at', { keep: 'period' }),
  ask('digest', 'digest', 'day', { raw: { period: 'weekly' } }),
  ask('digest', 'digest', 'tz', { id: 'digestTz', keep: 'period' }),
  ...LANGUAGE_CODES.map((code) => set('language', 'language', `lang:${code}`, { code })),
  set('language', 'language', 'lang:auto', { code: 'auto' }),
  set('autocard', 'autocard', 'autoOn', { mode: 'on' }),
  set('autocard', 'autocard', 'autoOff', { mode: 'off' }),
  ask('autocard', 'autocard', 'cooldown', { id: 'autoCooldown' }),
  set('autocard', 'callboard', 'boardOn', { action: 'on' }),
  set('autocard', 'callboard', 'boardOff', { action: 'off' }),
  set('autocard', 'web', 'webOn', { action: 'on' }),
  ask('autocard', 'web', 'slug', { id: 'webSlug', raw: { action: 'on' } }),
  set('autocard', 'web', 'webOff', { action: 'off' }),
];

export const controlById = (id: string): Control | undefined => CONTROLS.find((c) => c.id === id);

/**
 * Presets: a few `/subscribe` options at once, each shown before it is applied.
 * Options a preset leaves out keep their value.
 */
export const PRESETS = {
  early: { token_score: '50', kol_score: '80', max_mcap: '1m', min_liquidity: '10k', max_age: '3d' },
  balanced: {
    token_score: String(DEFAULT_FILTERS.minTokenScore),
    kol_score: String(DEFAULT_FILTERS.minKolScore),
    followers: String(DEFAULT_FILTERS.minFollowers),
    cooldown: String(DEFAULT_FILTERS.cooldownMinutes),
    min_mcap: '0',
    max_mcap: '0',
    min_liquidity: '0',
    max_age: 'off',
  },
  best: { kol_score: '90', followers: '50k', token_score: '60' },
} as const satisfies Record<string, Partial<Record<OptionOf<'subscribe'>, string>>>;
export type Preset = keyof typeof PRESETS;
