// The terminal follows LANG (LC_ALL, LC_MESSAGES first) or a --lang flag, as `npm start` runs it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../../src/config.ts';

const MAIN = fileURLToPath(new URL('../../src/main.ts', import.meta.url));

function runBot(
  args: string[],
  env: Record<string, string>,
  lines: string[],
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [MAIN, ...args], {
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
