/**
 * The terminal adapter: each stdin line is a command typed as in Telegram, each
 * reply goes to stdout, everything else (banner, logs) to stderr, so that
 * `printf '/help\n' | npm start > out.txt` captures only the answers.
 * Buttons appear numbered; typing the number presses the button.
 */
import { writeFile, mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import type { Caller } from '../../core/command.ts';
import type { AutoCards } from '../../core/autocard.ts';
import { findTokenRefs } from '../../core/detect.ts';
import type { Dispatcher } from '../../core/dispatch.ts';
import { chatLocale } from '../../core/language.ts';
import { negotiate, pickLocale, translator, type Locale, type T } from '../../i18n/index.ts';
import type { ChatLanguages } from '../../store/languages.ts';
import type { View } from '../../domain/view.ts';
import { toPlainText } from '../../views/render/plain.ts';

export interface ConsoleOptions {
  readonly dispatcher: Dispatcher;
  readonly input: Readable;
  readonly output: Writable;
  /** Colour only on a real terminal, never into a pipe or file. */
  readonly colour: boolean;
  /** Where pictures are written; default ./out. */
  readonly pictureDir?: string;
  /** The terminal's language tag (config: --lang, LC_ALL, LC_MESSAGES, LANG). */
  readonly locale?: string | undefined;
  /** The chat languages (/language in the terminal changes the console's own words too). */
  readonly languages?: ChatLanguages;
  /** Cards for a pasted address or link, as a group gets them (the console is where people try the bot). */
  readonly autoCards?: AutoCards;
  /** The buttons a number presses: the last reply's, or an alert's printed after it (share with consoleSender). */
  readonly buttons?: ConsoleButtons;
}

/**
 * The numbered buttons last printed, by a reply or an alert: typing the number
 * presses it. One board per terminal, shared by the adapter and the alert sender.
 */
export interface ConsoleButtons {
  show(actions: readonly { n: number; id: string }[]): void;
  find(n: number): string | undefined;
}

export function consoleButtons(): ConsoleButtons {
  let last: readonly { n: number; id: string }[] = [];
  return {
    show: (actions) => {
      last = actions;
    },
    find: (n) => last.find((a) => a.n === n)?.id,
  };
}

/** The console's own words in the language its answers use: the chat's /language, else the terminal's. */
export async function consoleWords(languages: ChatLanguages | undefined, locale: string | undefined): Promise<T> {
  if (!languages) return translator(pickLocale(undefined, locale));
  return translator(await chatLocale(languages, { platform: 'console', chatId: 'console', locale }));
}

/**
 * The banner's line saying which language is in force and why: the chat's
 * /language (which wins over --lang and LANG, so a stored one would otherwise
 * look like --lang being ignored), else the terminal's tag and where it came
 * from, else English.
 */
export async function languageLine(
  languages: ChatLanguages | undefined,
  locale: string | undefined,
  from: string | undefined,
): Promise<string> {
  let stored: Locale | undefined;
  try {
    stored = await languages?.get('console', 'console');
  } catch {
    stored = undefined; // the answers fall back the same way (core/language.ts)
  }
  const t = translator(pickLocale(stored, locale));
  const language = t('language.name');
  // The terminal's tag counts when we speak it (LANG=C or de_DE means English, said as the default).
  const spoken = negotiate(locale);
  const terminal = spoken !== undefined && from !== undefined;
  const source = from === '--lang' ? `--lang ${locale}` : `${from}=${locale}`;
  if (stored)
    return terminal && stored !== spoken
      ? t('console.langChatOver', { language, source })
      : t('console.langChat', { language });
  return terminal ? t('console.langFrom', { language, source }) : t('console.langDefault', { language });
}

/** Longest a pasted address's explicit lookup may take before it is answered as too slow. */
const EXPLICIT_BUDGET_MS = 15_000;

export interface ConsoleAdapter {
  /** Resolves when input has ended and every reply is written. */
  readonly done: Promise<void>;
  /** Stops reading; pending replies still finish. */
  stop(): Promise<void>;
}

export function startConsole(o: ConsoleOptions): ConsoleAdapter {
  const caller: Caller = {
    platform: 'console',
    userId: 'console',
    chatId: 'console',
    chatType: 'private',
    ...(o.locale ? { locale: o.locale } : {}),
    // The terminal's one user, so /mycall and /stats can be tried there.
    member: { id: 'console', name: 'console' },
    canManage: async () => true,
  };
  const words = () => consoleWords(o.languages, o.locale);
  const rl = createInterface({ input: o.input, terminal: false, crlfDelay: Infinity });
  const pictureDir = resolve(o.pictureDir ?? 'out');
  const buttons = o.buttons ?? consoleButtons();
  const where = { platform: 'console' as const, chatId: 'console', ...(o.locale ? { locale: o.locale } : {}) };
  // Lines are answered strictly in order: a button number refers to the reply before it.
  let chain: Promise<void> = Promise.resolve();

  const write = (s: string) =>
    new Promise<void>((res) => {
      if (!o.output.write(s.endsWith('\n') ? s : `${s}\n`)) o.output.once('drain', res);
      else res();
    });

  async function show(view: View): Promise<void> {
    const r = toPlainText(view, { colour: o.colour });
    buttons.show(r.actions.map((a) => ({ n: a.n, id: a.id })));
    let text = r.text;
    const picture = 'picture' in view ? view.picture : undefined;
    if (picture) {
      await mkdir(pictureDir, { recursive: true });
      const path = join(pictureDir, `${Date.now()}-${picture.name}`);
      await writeFile(path, picture.png);
      text += `\n${(await words())('console.picture', { alt: picture.alt, path })}`;
    }
    await write(`${text}\n`);
  }

  async function handle(line: string): Promise<void> {
    const t = line.trim();
    if (!t) return;
    if (/^\d{1,2}$/.test(t)) {
      const id = buttons.find(Number(t));
      if (!id) return write(`${(await words())('console.noButton', { n: t })}\n`);
      return show(await o.dispatcher.action(id, caller));
    }
    // A pasted address or link: its card, as in a group; one the service does not know (or
    // one in its cooldown) is asked for explicitly, since here nobody else is talking.
    if (!t.startsWith('/') && o.autoCards && findTokenRefs(t, 1).length > 0) {
      const card = await o.autoCards.forText(t, where);
      if (card) return show(card);
      const asked = await o.autoCards.explicit(t, where);
      return show('refused' in asked ? asked.refused : await asked.run(AbortSignal.timeout(EXPLICIT_BUDGET_MS)));
    }
    const view = await o.dispatcher.text(t.startsWith('/') ? t : `/${t}`, caller, {
      capabilities: { pictures: true, buttons: true },
    });
    if (view) await show(view);
  }

  rl.on('line', (line) => {
    chain = chain
      .then(() => handle(line))
      .catch(async (err: unknown) =>
        write(`${(await words())('console.failed', { reason: (err as Error)?.message ?? String(err) })}\n`),
      );
  });
  const done = new Promise<void>((res) => rl.once('close', () => void chain.then(res)));
  return {
    done,
    async stop() {
      rl.close();
      await done;
    },
  };
}
