/**
 * Alerts in the terminal: a console "chat" can /subscribe like any other, and
 * its alerts are printed between replies. Lets anyone watch the alert pipeline
 * work against the sandbox's live feed without a chat platform.
 */
import type { Writable } from 'node:stream';
import type { Sender } from '../../alerts/delivery.ts';
import type { ChatLanguages } from '../../store/languages.ts';
import { toPlainText } from '../../views/render/plain.ts';
import { type ConsoleButtons, consoleWords } from './index.ts';

export function consoleSender(
  output: Writable,
  colour: boolean,
  o: {
    readonly languages?: ChatLanguages;
    readonly locale?: string | undefined;
    /** The terminal's numbered buttons: an alert's become the ones a number presses. */
    readonly buttons?: ConsoleButtons;
  } = {},
): Sender {
  let n = 0;
  const words = () => consoleWords(o.languages, o.locale);
  return {
    platform: 'console',
    async send(_chatId, view) {
      const { text, actions } = toPlainText(view, { colour });
      if (actions.length) o.buttons?.show(actions.map((a) => ({ n: a.n, id: a.id })));
      output.write(`\n🔔 ${(await words())('console.alert')}\n${text}\n`);
      return { kind: 'sent', messageId: String(++n) };
    },
    async edit(_chatId, messageId, view) {
      const head = (await words())('console.alertUpdated', { n: messageId });
      output.write(`\n🔔 ${head}\n${toPlainText(view, { colour }).text}\n`);
      return { kind: 'sent', messageId };
    },
  };
}
