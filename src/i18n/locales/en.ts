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
    alerts: 'Show this chat’s alert settings; pause, resume or send a test alert',
    digest: 'Post a daily or weekly summary here: top tokens, best KOLs, calls (admins)',
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
    help: { command: 'A command to explain, e.g. token' },
    language: { code: 'Language code (en, zh, ru, es, pt-BR, tr, vi, ko) or auto' },
  },
  /** Telegram's bot profile: description at most 512 characters, short description at most 120. */
  bot: {
    description:
      'kolradar looks up crypto tokens and the KOLs who shill them: token and KOL cards, tables, latest tweets, win rates after a shill, and alerts in your group when high-score KOLs shill a token. Send /help to see every command.',
    shortDescription: 'Crypto tokens and the KOLs who shill them: cards, win rates and shill alerts.',
  },
  merged: {
    burstTitle_one: '{{count}} alert at once',
    burstTitle_other: '{{count}} alerts at once',
    burstFooter: 'More alerts than this chat can take one by one right now: merged into one message.',
    quietTitle_one: '{{count}} alert during quiet hours',
    quietTitle_other: '{{count}} alerts during quiet hours',
    quietFooter: 'Held during quiet hours · times in {{tz}}',
    by: 'by {{kols}}',
    mcap: 'mcap {{value}}',
    since: '{{multiple}} since then',
    more_one: '…and {{count}} more',
    more_other: '…and {{count}} more',
  },
  quiet: {
    set: 'Quiet hours: {{from}}-{{to}} ({{tz}}). Alerts in that time are held and listed in one message when they end.',
    off: 'Quiet hours are off: alerts go out as they come.',
    badRange: 'I can’t read “{{range}}” as quiet hours. Give a start and an end, e.g. {{example}}.',
    adminsOnly: 'Only admins can set quiet hours here.',
  },
  zone: {
    bad: '“{{tz}}” is not a time zone I know. Use an IANA name, e.g. {{example}}.',
  },
  digest: {
    titleDaily: 'Daily digest',
    titleWeekly: 'Weekly digest',
    late: 'Posted late: the bot was offline at the scheduled time ({{time}}).',
    tokens: 'Most shilled tokens',
    mentions_one: '{{count}} KOL mention',
    mentions_other: '{{count}} KOL mentions',
    newToken: 'new',
    kols: 'Best win rates',
    winRate: 'win rate {{rate}}',
    calls: 'Calls in this chat',
    callsLine: '{{calls}} calls · hit rate {{hit}} · best {{best}}',
    callsNone: 'No calls tracked here in this period.',
    none: 'Nothing in this period.',
    unavailable: 'Not available right now.',
    setDaily: 'A daily digest will be posted here at {{at}} ({{tz}}).',
    setWeekly: 'A weekly digest will be posted here on {{day}} at {{at}} ({{tz}}).',
    off: 'Digests are off here.',
    now: 'A digest is on its way to this chat.',
    badAt: 'I can’t read the time “{{at}}”. Use 24-hour time, e.g. {{example}}.',
    badDay: 'I can’t read the day “{{day}}”. Use one of {{days}}.',
    adminsOnly: 'Only admins can set digests here.',
    footer: 'kolradar digest · {{from}} – {{to}} ({{tz}})',
  },
};
