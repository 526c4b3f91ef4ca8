/**
 * Every user-facing string of the lookup features (name search, reply form,
 * automatic cards, inline mode, message command), in one place so they can
 * move to an i18n catalogue as a block.
 */
export const LOOKUP_TEXT = {
  noMatch: (q: string) => `No token matches “${q}”. Try its $SYMBOL, part of its name, or paste its contract address:`,
  noMatchExample: '/token $PEPE',
  tooShort: 'Give at least two letters of a name or symbol, or a contract address:',
  pickTitle: (q: string) => `Tokens matching “${q}”`,
  pickHint: 'Several tokens match. Pick one:',
  pickMore: (n: number) => `${n} more match; add chain:solana (or bsc, base, sui, aptos) to narrow.`,
  replyNothingToken: 'That message has no token address, link or $SYMBOL I can read.',
  replyNothingKol: 'That message has no @handle or x.com profile link I can read.',
  fullCard: (symbol: string) => `Card ${symbol}`,
  moreTokens: (n: number) => `${n} tokens in that message:`,
  autocardStatus: (on: boolean, cooldown: string) => `Automatic cards are ${on ? 'on' : 'off'} in this chat (cooldown ${cooldown} per token).`,
  autocardSet: (on: boolean, cooldown: string) => `Automatic cards are now ${on ? 'on' : 'off'} here (cooldown ${cooldown} per token).`,
  autocardPrivate: 'Paste a contract address or a link from an explorer or trading site, and I answer with its card.',
  telegramPrivacyOn:
    'But Telegram does not show me ordinary group messages: my privacy mode is on. To fix it, either make me an admin of this group, ' +
    'or have my owner send /setprivacy to @BotFather, pick this bot, choose Disable, then remove me from the group and add me again.',
  telegramPrivacyOff: 'I can read pasted addresses and links in this group.',
  discordIntentOff:
    'In servers I only see pastes in messages that mention me: the operator has not turned on the Message Content intent (DISCORD_MESSAGE_CONTENT). ' +
    'Anyone can still right-click a message → Apps → Token card.',
  discordIntentOn: 'I can read pasted addresses and links in this server.',
  badCooldown: 'Cooldown is a duration like 10m, 30m or 2h (at most 24h).',
  inlineHint: 'Type an address, a link, a $SYMBOL, a name or a @kol',
  inlineHintDescription: 'For example: $PEPE, a dexscreener link or @cryptoking',
  inlineNothing: 'Nothing found: open a chat with me',
  inlineKolTitle: (h: string) => `KOL @${h}`,
  messageCommand: 'Token card',
  messageCommandNothing: 'That message has no token address or link I can read.',
  messageCommandUnknown: 'The analytics service does not know the tokens in that message.',
  messageCommandUnavailable: 'This command is not available right now.',
} as const;
