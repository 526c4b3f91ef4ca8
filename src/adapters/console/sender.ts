/**
 * Alerts in the terminal: a console "chat" can /subscribe like any other, and
 * its alerts are printed between replies. Lets anyone watch the alert pipeline
 * work against the sandbox's live feed without a chat platform.
 */
import type { Writable } from 'node:stream';
import type { Sender } from '../../alerts/delivery.ts';
import { toPlainText } from '../../views/render/plain.ts';

export function consoleSender(output: Writable, colour: boolean): Sender {
  let n = 0;
  return {
    platform: 'console',
    async send(_chatId, view) {
      const { text } = toPlainText(view, { colour });
      output.write(`\n🔔 ALERT\n${text}\n`);
      return { kind: 'sent', messageId: String(++n) };
    },
    async edit(_chatId, messageId, view) {
      output.write(`\n🔔 ALERT #${messageId} UPDATED\n${toPlainText(view, { colour }).text}\n`);
      return { kind: 'sent', messageId };
    },
  };
}
