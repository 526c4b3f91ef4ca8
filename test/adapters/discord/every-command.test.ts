/**
 * Every command of the registry as a slash interaction, options built from its
 * own example (with the sandbox's records where an example names one it does not
 * have): acknowledged with a deferral within 3 s, then a public answer.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { toDiscordCommand } from '../../../src/adapters/discord/commands.ts';
import { argsFor, splitCommand } from '../../../src/core/parse.ts';
import { sandboxLines } from '../../helpers/sandbox-lines.ts';
import { embedOf, MANAGER, MANAGER_PERMISSIONS, publicAnswer, shown, startHarness, type Harness } from './harness.ts';

let h: Harness;
before(async () => {
  h = await startHarness();
});
after(() => h.close());

test('every command: deferred within 3 s, then a public answer carrying the sandbox values', async () => {
  const { kol, tok, lines } = sandboxLines(h.app.sandbox!);
  const expect: Record<string, string> = {
    token: tok.symbol,
    mindmap: tok.symbol,
    kol: kol.username,
    kolmap: kol.username,
    momentum: kol.username,
  };
  const channelId = h.channels[1]!;
  // Subscribe first (and unsubscribe last) so /alerts and /mute have a subscription to act on.
  const names = [
    'subscribe',
    ...[...h.app.dispatcher.commands.keys()].filter((n) => n !== 'subscribe' && n !== 'unsubscribe'),
    'unsubscribe',
  ];
  for (const name of names) {
    const command = h.app.dispatcher.commands.get(name)!;
    const line = lines[name] ?? command.examples[0];
    const raw = argsFor(command, splitCommand(line)!.args);
    const def = toDiscordCommand(command);
    const options = Object.entries(raw).map(([key, value]) => {
      const type = def.options.find((o) => o.name === key)!.type;
      const text = String(value);
      return {
        name: key,
        type,
        value: type === 4 || type === 10 ? Number(text) : type === 5 ? /^(yes|true|1|on)$/i.test(text) : text,
      };
    });
    const i = await h.fake.sendCommand({
      name,
      channelId,
      options,
      user: MANAGER,
      memberPermissions: MANAGER_PERMISSIONS,
    });
    await i.waitFor('callback');
    assert.equal(i.callbacks[0]!.type, 5, `${line}: deferred first`);
    // In time: the fake refuses a callback after Discord's 3 s, as Discord does.
    const m = await publicAnswer(i);
    // Cards and tables come as embeds, plain text answers (/help, /alerts pause) as content.
    const text = shown(m.embeds.length ? JSON.stringify(embedOf(m)) : m.content);
    assert.ok(text.length > 20, `${line}: an answer with content`);
    assert.doesNotMatch(text, /slow or unavailable|Something went wrong/, `${line}: ${text.slice(0, 200)}`);
    if (expect[name]) assert.ok(text.includes(expect[name]!), `${line} shows ${expect[name]}`);
  }
});
