// Reading commands as Telegram marks them, and the command menu Telegram accepts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { botCommands, parseCommand } from '../../../src/adapters/telegram/commands.ts';
import type { AnyCommand } from '../../../src/core/command.ts';

const cmd = (text: string, length = text.split(/\s/)[0]!.length) =>
  parseCommand(text, [{ type: 'bot_command', offset: 0, length }], 'KolRadar_bot');

test('commands: /name, /name@ourbot (any case), arguments kept; other bots and non-commands ignored', () => {
  assert.deepEqual(cmd('/token solana abc'), { name: 'token', args: ' solana abc', addressed: false });
  assert.deepEqual(cmd('/Token@kolradar_BOT  x'), { name: 'token', args: '  x', addressed: true });
  assert.equal(cmd('/token@otherbot x'), undefined);
  assert.equal(
    parseCommand('hello /token', [{ type: 'bot_command', offset: 6, length: 6 }], 'KolRadar_bot'),
    undefined,
    'not at the start',
  );
  assert.equal(parseCommand('/token', undefined, 'KolRadar_bot'), undefined, 'no entity: Telegram did not mark it');
  assert.equal(parseCommand('/token', [{ type: 'bold', offset: 0, length: 6 }], 'KolRadar_bot'), undefined);
});

test('the menu keeps what Telegram accepts and reports the rest', () => {
  const c = (name: string, description: string) => [name, { name, description }] as [string, AnyCommand];
  const registry = new Map([
    c('token', 'Token card'),
    c('Bad-Name', 'x'),
    c('empty', '  '),
    c('long', 'x'.repeat(257)),
    c('help', 'Help'),
  ]);
  const { commands, skipped } = botCommands(registry);
  assert.deepEqual(commands, [
    { command: 'token', description: 'Token card' },
    { command: 'help', description: 'Help' },
  ]);
  assert.deepEqual(skipped.sort(), ['Bad-Name', 'empty', 'long']);
});
