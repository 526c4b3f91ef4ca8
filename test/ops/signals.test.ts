/**
 * A supervisor signals the process it started. The documented start line for
 * supervisors is `npm start`'s own node command, run directly (docs/deploy.md):
 * this test takes that line from package.json, starts it as the supervisor
 * would, and signals that very process while a command is in flight. The
 * command's answer still arrives, and the process exits 0.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startSandbox } from '../../src/sandbox/server.ts';
import { startTelegramFake } from '../fakes/telegram/index.ts';
import { startLine } from '../helpers/npm.ts';
import { until } from '../helpers/wait.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

for (const sig of ['SIGTERM', 'SIGINT'] as const) {
  test(`${sig} to the bot's node process drains the in-flight command and exits 0`, { timeout: 60_000 }, async (t) => {
    const dir = await mkdtemp(join(tmpdir(), 'kolradar-signal-'));
    const sb = await startSandbox();
    const telegram = await startTelegramFake({ limits: false });
    t.after(async () => {
      await telegram.close();
      await sb.close();
      await rm(dir, { recursive: true, force: true });
    });
    let logs = '';
    const child = spawn(process.execPath, startLine(), {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH ?? '',
        KOL_API_BASE_URL: sb.url,
        KOL_API_KEY: sb.apiKey,
        TELEGRAM_BOT_TOKEN: telegram.token,
        TELEGRAM_API_ROOT: telegram.apiRoot,
        STORE_URL: `sqlite:${join(dir, 'state.sqlite')}`,
        LOG_LEVEL: 'info',
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    t.after(() => void child.kill('SIGKILL'));
    child.stderr!.on('data', (d: Buffer) => (logs += d.toString()));
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    await until(() => logs.includes('"msg":"ready"'), 'the bot process to log ready');

    // A slow upstream keeps the command in flight when the signal arrives.
    sb.setFaults({ latencyMs: 1500 });
    const chat = { id: 5151, type: 'private' as const };
    telegram.sendText({ chat, from: { id: 5151, first_name: 'Sig' }, text: '/kols' });
    await until(() => sb.count('kolTable') >= 1, "the command's upstream request in flight");
    child.kill(sig);

    assert.equal(await exited, 0, `${sig} exits 0`);
    assert.match(logs, new RegExp(`"why":"${sig}"`), 'the bot logged why it stopped');
    const replies = telegram.messages(chat.id);
    assert.equal(replies.length, 1, 'the in-flight command was answered before exit');
    assert.doesNotMatch(replies[0]!.text ?? '', /restarting|went wrong/i);
  });
}
