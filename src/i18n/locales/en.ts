/**
 * English: the typed source of the catalogue. Every other language file has
 * exactly these keys (plural keys with the plural forms of its language) and
 * the same {{placeholders}}; test/i18n/catalogue.test.ts checks it.
 * Tickers, addresses, handles, URLs and command names are never in here: they
 * go through placeholders untouched.
 */
export default {
  language: {
    /** The language's own name, as its speakers write it (shown in the choices). */
    name: 'English',
    current: 'This chat speaks {{language}}.',
    followsCaller: 'No language is set for this chat: I answer in each person’s app language ({{language}} for you).',
    choose: 'Set one with /language <code>, or /language auto to follow each person’s app:',
    set: 'Done: I speak English in this chat from now on.',
    cleared: 'Language cleared: I answer in each person’s app language again ({{language}} for you).',
    unknown: 'I don’t speak “{{code}}”. Choose one of: {{codes}}, or auto.',
    adminsOnlyGroup: 'Only group admins can change this chat’s language.',
    adminsOnlyChannel: 'Only members who can manage this channel can change its language.',
  },
  start: {
    hi: 'Hi, I am kolradar.',
    intro: 'I look up crypto tokens and the KOLs (influential X accounts) who shill them: cards, tables, tweets and win rates.',
  },
  help: {
    commands_one: '{{count}} command.',
    commands_other: '{{count}} commands.',
    more: 'Options of one command:',
    examples: 'Examples:',
    noSuch: 'There is no /{{name}}.',
    noSuchNear: 'There is no /{{name}}. Did you mean /{{near}}?',
    required: 'required',
    byPosition: 'by position',
    type: { string: 'text', integer: 'integer', number: 'number', boolean: 'yes/no' },
    listOf: { string: 'list of values', integer: 'list of integer', number: 'list of number', boolean: 'list of yes/no' },
    oneOf: 'one of: {{choices}}',
    range: '{{min}}-{{max}}',
    atLeast: 'at least {{min}}',
    atMost: 'at most {{max}}',
    default: 'default {{value}}',
    example: 'e.g. {{example}}',
  },
  /** One line per command, at most 100 characters (Discord's limit). */
  commands: {
    calls: 'Calls here: how the alerted tokens did since, by call or by KOL',
    alerts: 'Show this chat’s alert settings; pause, resume or send a test alert',
    help: 'Every command with an example, or the options of one command',
    kol: 'KOL card: rank, smart followers, scores and win rate after a shill',
    kolmap: 'The tokens a KOL has mentioned, most mentioned first',
    kols: 'KOL table: rank, score, win rate, smart followers; sort, filter and page',
    language: 'Show or set the language I answer in here (admins in groups)',
    mindmap: 'Tokens most linked to a token by the KOLs who mention it',
    momentum: "A KOL's shilled tokens: price change after each window, and win rates",
    mute: 'Stop (or with off:yes resume) alerts about one token here (admins)',
    projects: 'Accounts that smart KOLs follow, most smart followers first',
    start: 'Welcome, and what the bot can do',
    subscribe: 'Turn on alerts here when high-score KOLs shill a token (admins)',
    token: 'Token card: market cap, liquidity, price changes, mentions, scores and latest tweets',
    tokens: 'Token list: price changes, market cap, mentions and scores; sort, filter and page',
    tweets: 'Latest tweets: the feed with filters, or the tweets about one token',
    unsubscribe: 'Turn off alerts here (admins)',
    winrate: 'KOL win rates after a shill, by time window, with performance scores',
  },
  /** Option descriptions by command and option, at most 100 characters (Discord's limit). */
  options: {
    calls: { period: 'Period: 24h, 7d, 30d or all (default 7d)', sort: 'Sort: best, recent or worst (default best)', kol: 'Only the calls of this KOL (X username)', by: 'kol: rank the KOLs instead of the calls', action: 'clear: forget this chat’s call history (admins)' },
    subscribe: { followups: 'Follow-up times after an alert, e.g. 1h,6h,24h, or off' },
    help: { command: 'A command to explain, e.g. token' },
    language: { code: 'Language code (en, zh, ru, es, pt-BR, tr, vi, ko) or auto' },
  },
  /** Telegram's bot profile: description at most 512 characters, short description at most 120. */
  bot: {
    description:
      'kolradar looks up crypto tokens and the KOLs who shill them: token and KOL cards, tables, latest tweets, win rates after a shill, and alerts in your group when high-score KOLs shill a token. Send /help to see every command.',
    shortDescription: 'Crypto tokens and the KOLs who shill them: cards, win rates and shill alerts.',
  },
  /** Call tracking: follow-up lines edited into alerts, /calls and its picture. */
  calls: {
    sinceAlert: 'Since alert ({{point}}): {{multiple}} · mcap {{from}} → {{to}} · peak {{peak}}',
    sinceAlertLate: 'Since alert ({{point}}, checked late): {{multiple}} · mcap {{from}} → {{to}} · peak {{peak}}',
    title: 'Calls here · {{period}}',
    titleByKol: 'KOLs by their calls here · {{period}}',
    periodAll: 'all time',
    periodLast: 'last {{period}}',
    count_one: '{{count}} call',
    count_other: '{{count}} calls',
    hitRate: 'hit rate {{rate}} (peak reached {{threshold}})',
    median: 'median now {{multiple}}',
    best: 'best: {{symbol}} by @{{kol}}, peak {{peak}}',
    none: 'No calls here in this period yet: every alert sent here becomes one, followed up in place.',
    noneKol: 'No calls by @{{kol}} here in this period.',
    colToken: 'Token',
    colKol: 'KOL',
    colWhen: 'When',
    colNow: 'Now',
    colPeak: 'Peak',
    colCalls: 'Calls',
    colHitRate: 'Hit rate',
    colMedian: 'Median',
    cleared_one: 'Forgot {{count}} call of this chat.',
    cleared_other: 'Forgot {{count}} calls of this chat.',
    adminsOnly: 'Only admins may clear this chat’s call history.',
    followupsOn: 'Follow-ups: {{points}} after each alert, edited into it',
    followupsOff: 'Follow-ups: off',
    badFollowups: 'Can’t read the follow-ups “{{value}}”: use times like 1h,6h,24h (up to 30d), or off.',
    chartTitle: 'Calls here · {{period}}: peak and now (log scale), best first',
    legendPeak: 'peak',
    legendNow: 'now',
  },
};
