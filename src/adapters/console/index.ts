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
import type { Dispatcher } from '../../core/dispatch.ts';
import type { View } from '../../views/model.ts';
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
}

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
    canManage: async () => true,
  };
  const rl = createInterface({ input: o.input, terminal: false, crlfDelay: Infinity });
  const pictureDir = resolve(o.pictureDir ?? 'out');
  let lastActions: { n: number; id: string }[] = [];
  // Lines are answered strictly in order: a button number refers to the reply before it.
  let chain: Promise<void> = Promise.resolve();

  const write = (s: string) =>
    new Promise<void>((res) => {
      if (!o.output.write(s.endsWith('\n') ? s : `${s}\n`)) o.output.once('drain', res);
      else res();
    });

  async function show(view: View): Promise<void> {
    const r = toPlainText(view, { colour: o.colour });
    lastActions = r.actions.map((a) => ({ n: a.n, id: a.id }));
    let text = r.text;
    const picture = 'picture' in view ? view.picture : undefined;
    if (picture) {
      await mkdir(pictureDir, { recursive: true });
      const path = join(pictureDir, `${Date.now()}-${picture.name}`);
      await writeFile(path, picture.png);
      text += `\n[picture] ${picture.alt}: ${path}`;
    }
    await write(`${text}\n`);
  }

  async function handle(line: string): Promise<void> {
    const t = line.trim();
    if (!t) return;
    if (/^\d{1,2}$/.test(t)) {
      const hit = lastActions.find((a) => a.n === Number(t));
      if (!hit) return write(`No button ${t} on the last reply.\n`);
      return show(await o.dispatcher.action(hit.id, caller));
    }
    const view = await o.dispatcher.text(t.startsWith('/') ? t : `/${t}`, caller, {
      capabilities: { pictures: true, buttons: true },
    });
    if (view) await show(view);
  }

  rl.on('line', (line) => {
    chain = chain.then(() => handle(line)).catch((err: unknown) => write(`Error: ${(err as Error).message}\n`));
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
