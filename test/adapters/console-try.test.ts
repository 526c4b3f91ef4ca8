// The console is where people try the bot: a pasted address or link gets its card as in a group,
// and the buttons under an alert printed in the terminal press like a reply's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { consoleButtons, startConsole } from '../../src/adapters/console/index.ts';
import { consoleSender } from '../../src/adapters/console/sender.ts';
import { createApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { silentLogger } from '../../src/log.ts';
import { until } from '../helpers/wait.ts';

const NEVER = '0 0 1 1 *';

async function terminal(t: import('node:test').TestContext) {
  const app = await createApp(loadConfig({ STORE_URL: 'memory:', WATCH_CRON: NEVER }), silentLogger(), {
    sandboxLiveRate: 0,
  });
  const dir = await mkdtemp(join(tmpdir(), 'kolradar-console-try-'));
  t.after(async () => {
    await app.close();
    await rm(dir, { recursive: true, force: true });
  });
  let out = '';
  const output = new Writable({
    write(chunk, _enc, done) {
      out += String(chunk);
      done();
    },
  });
  const input = new PassThrough();
  const buttons = consoleButtons();
  const c = startConsole({
    dispatcher: app.dispatcher,
    input,
    output,
    colour: false,
    pictureDir: dir,
    languages: app.store.languages,
    autoCards: app.autoCards,
    buttons,
  });
  t.after(() => c.stop());
  /** Types a line; resolves with what the terminal printed for it (each line gets an answer here). */
  const type = async (line: string): Promise<string> => {
    const from = out.length;
    input.write(`${line}\n`);
    await until(() => out.length > from, `the console's answer to ${JSON.stringify(line)}`);
    // The answer is one write; a following line waits for it (lines are answered in order).
    return out.slice(from);
  };
  return { app, type, output, buttons, out: () => out };
}

test('a pasted address or token link gets its card in the console, as in a group', async (t) => {
  const { app, type } = await terminal(t);
  const token = app.sandbox!.data.tokens.find((x) => x.chain_id === 'solana' && x.marketcap > 0)!;
  const pasted = await type(`look at this one ${token.address} 🚀`);
  assert.match(pasted, new RegExp(`\\$${token.symbol.replace(/[^A-Za-z0-9]/g, '.')}`));
  assert.doesNotMatch(pasted, /Unknown command/);
  // Pasted again within the cooldown: still answered (nobody else is talking in a terminal).
  assert.match(await type(token.address), new RegExp(token.symbol.replace(/[^A-Za-z0-9]/g, '.')));
  // Words that are no command and carry no address are still read as a command.
  assert.match(await type('help'), /\/token/);
});

test('the buttons of an alert printed in the console are pressed by their number', async (t) => {
  const { app, type, output, buttons, out } = await terminal(t);
  await type('/subscribe');
  const sender = consoleSender(output, false, { languages: app.store.languages, buttons });
  const watcher = app.startAlerts([sender], { cron: NEVER });
  t.after(() => app.stopAlerts());
  await watcher.tick();
  const kol = app.sandbox!.data.kols.find((k) => k.follower_count >= 20_000)!;
  const token = app.sandbox!.data.tokens.find((x) => x.chain_id === 'solana' && x.marketcap > 0)!;
  app.sandbox!.addTweets(1, { token: token.id, kol: kol.id, tokenScore: 95, kolScore: 95 });
  const before = out().length;
  await watcher.tick();
  await until(() => out().slice(before).includes('🔔'), 'the alert printed in the console');
  const alert = out().slice(before);
  assert.match(alert, /🔔 ALERT/);
  assert.match(alert, /\[1\] Token card/);
  const pressed = await type('1');
  assert.doesNotMatch(pressed, /No button 1/);
  assert.match(pressed, new RegExp(token.address));
});
