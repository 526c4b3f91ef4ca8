// The terminal follows LANG (LC_ALL, LC_MESSAGES first) or a --lang flag, as `npm start` runs it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { languageLine } from '../../src/adapters/console/index.ts';
import { DEFAULT_CONSOLE_LOG, logFileOf } from '../../src/bot.ts';
import { loadConfig } from '../../src/config.ts';
import { translator, type Locale } from '../../src/i18n/index.ts';
import type { ChatLanguages } from '../../src/store/languages.ts';

const MAIN = fileURLToPath(new URL('../../src/main.ts', import.meta.url));

function runBot(
  args: string[],
  env: Record<string, string>,
  lines: string[],
  cwd?: string,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    // Node's own flags as `npm start` passes them (a flag printing over the banner shows up here).
    const [, ...nodeFlags] = (
      JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { scripts: { start: string } }
    ).scripts.start
      .split(/\s+/)
      .filter((a) => a !== 'src/main.ts');
    const child = spawn(process.execPath, [...nodeFlags, MAIN, ...args], {
      ...(cwd ? { cwd } : {}),
      env: { PATH: process.env.PATH ?? '', STORE_URL: 'memory:', LOG_LEVEL: 'warn', ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.once('error', reject);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin.end(lines.map((l) => `${l}\n`).join(''));
  });
}

test('the console language: --lang, then LC_ALL, LC_MESSAGES, LANG', () => {
  assert.equal(loadConfig({ LANG: 'ru_RU.UTF-8' }).consoleLocale, 'ru_RU.UTF-8');
  assert.equal(loadConfig({ LANG: 'ru_RU.UTF-8', LC_MESSAGES: 'ko_KR.UTF-8' }).consoleLocale, 'ko_KR.UTF-8');
  assert.equal(
    loadConfig({ LANG: 'ru_RU.UTF-8', LC_MESSAGES: 'ko_KR.UTF-8', LC_ALL: 'tr_TR.UTF-8' }).consoleLocale,
    'tr_TR.UTF-8',
  );
  assert.equal(loadConfig({ LANG: 'ru_RU.UTF-8' }, ['--lang', 'vi']).consoleLocale, 'vi');
  assert.equal(loadConfig({}, ['--lang=pt-BR']).consoleLocale, 'pt-BR');
  assert.equal(loadConfig({}).consoleLocale, undefined);
});

test('npm start under LANG=ru_RU.UTF-8 answers in Russian; --lang ko wins over it', async () => {
  const ru = await runBot([], { LANG: 'ru_RU.UTF-8' }, ['/help']);
  assert.equal(ru.code, 0, ru.stderr);
  assert.match(ru.stdout, /\/token — Карточка токена/);
  const ko = await runBot(['--lang', 'ko'], { LANG: 'ru_RU.UTF-8' }, ['/help', '/language']);
  assert.equal(ko.code, 0, ko.stderr);
  assert.match(ko.stdout, /\/token — 토큰 카드/);
  assert.match(ko.stdout, /이 채팅에는 언어가 설정되지 않았어요\. 각자의 앱 언어로 답할게요 \(회원님은 한국어\)/);
});

test('the banner says which language is in force and why: the chat’s /language over --lang, else --lang or LANG', async () => {
  const languages = (stored?: Locale): ChatLanguages => ({
    get: async () => stored,
    set: async () => {},
    clear: async () => {},
  });
  assert.equal(
    await languageLine(languages('ru'), 'ko', '--lang'),
    translator('ru')('console.langChatOver', { language: 'Русский', source: '--lang ko' }),
  );
  assert.match(await languageLine(languages('ru'), 'ko', '--lang'), /\/language auto/);
  assert.equal(
    await languageLine(languages(), 'ko', '--lang'),
    translator('ko')('console.langFrom', { language: '한국어', source: '--lang ko' }),
  );
  assert.match(await languageLine(languages(), 'ru_RU.UTF-8', 'LANG'), /LANG=ru_RU\.UTF-8/);
  assert.equal(
    await languageLine(languages(), 'C.UTF-8', 'LANG'),
    translator('en')('console.langDefault', { language: 'English' }),
  );
  assert.equal(
    await languageLine(languages('vi'), undefined, undefined),
    translator('vi')('console.langChat', { language: 'Tiếng Việt' }),
  );
  // A store fault costs the chat's choice, never the banner.
  const broken: ChatLanguages = { ...languages(), get: async () => Promise.reject(new Error('down')) };
  assert.match(await languageLine(broken, 'tr', '--lang'), /--lang tr/);
});

test('npm start: the banner names the language it speaks, and no log line or .env notice is printed over it', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'kolradar-banner-'));
  try {
    const logFile = join(dir, 'bot.log');
    const ko = await runBot(['--lang', 'ko'], { LOG_LEVEL: 'info', LOG_FILE: logFile }, ['/help'], dir);
    assert.equal(ko.code, 0, ko.stderr);
    assert.match(ko.stderr, /언어: 한국어, --lang ko/);
    assert.doesNotMatch(ko.stderr, /^\{/m, 'no JSON log line on the terminal');
    assert.doesNotMatch(ko.stderr, /\.env/, 'no notice about a missing .env');
    assert.match(await readFile(logFile, 'utf8'), /"msg":"ready"/, 'the log lines went to the log file');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('log lines: a file on the console’s terminal, stderr when piped or on the chat platforms, LOG_FILE always', () => {
  assert.equal(logFileOf({ logFile: undefined }, true, true), DEFAULT_CONSOLE_LOG);
  assert.equal(logFileOf({ logFile: undefined }, true, false), undefined);
  assert.equal(logFileOf({ logFile: undefined }, false, true), undefined);
  assert.equal(logFileOf({ logFile: '/var/log/k.log' }, false, false), '/var/log/k.log');
});
