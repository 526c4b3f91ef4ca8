import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from 'discord.js';
import { gatewayInteractionHandler } from '../../../src/adapters/discord/http-interactions.ts';

test('HTTP interactions check at start that discord.js still has the gateway handler they feed', () => {
  const client = new Client({ intents: [] });
  try {
    assert.equal(typeof gatewayInteractionHandler(client), 'function', 'the installed discord.js has it');
  } finally {
    void client.destroy();
  }
  assert.throws(
    () => gatewayInteractionHandler({} as Client),
    /InteractionCreate\.handle/,
    'a release without it stops the start',
  );
});
