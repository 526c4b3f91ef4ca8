// Words a user met in English after choosing another language, each through the dispatcher as a
// command answers: the paging of /calls, an error's "Example:" label.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { translator } from '../../src/i18n/index.ts';
import type { Call } from '../../src/store/calls.ts';
import { asError, asTable, caller, harness, type Harness } from '../commands/harness.ts';
import { OTHER_LOCALES } from './platforms/script.ts';

let h: Harness;
before(async () => {
  h = await harness();
});
after(() => h.close());

const en = translator('en');

test('/calls pages say their range and buttons in the chat language', async () => {
  const now = Date.now();
  for (let i = 0; i < 18; i++) {
    const symbol = `TK${i}`;
    const call: Call = {
      id: `c${i}`,
      subId: `${caller.platform}:${caller.chatId}`,
      platform: 'console',
      chatId: caller.chatId,
      messageId: String(i),
      token: { chain: 'solana', address: `${symbol}addr`, symbol, name: symbol },
      kols: ['alpha_kol'],
      tweetIds: [String(i)],
      at: now - 3_600_000 - i * 60_000,
      marketCap: 1_000_000,
      liquidity: null,
      points: [],
      next: 0,
      samples: [{ at: now - 60_000, marketCap: 1_000_000 + i * 100_000 }],
      peak: 1_000_000 + i * 200_000,
      content: {} as Call['content'],
    };
    await h.store.calls.record(call);
  }
  try {
    for (const locale of OTHER_LOCALES) {
      await h.store.languages.set(caller.platform, caller.chatId, locale);
      const t = translator(locale);
      const page = asTable(await h.send('/calls'));
      assert.match(page.footer ?? '', new RegExp(`^${t('paging.of', { span: '1-10', total: '18' })}`), locale);
      assert.doesNotMatch(page.footer ?? '', / of /, `${locale}: ${page.footer}`);
      assert.deepEqual(
        (page.actions ?? []).map((a) => a.label),
        [t('paging.next')],
        locale,
      );
      assert.notEqual(t('paging.next'), en('paging.next'));
    }
  } finally {
    await h.store.calls.clear(`${caller.platform}:${caller.chatId}`);
  }
});

test("an error's example is labelled in the chat language", async () => {
  for (const locale of OTHER_LOCALES) {
    await h.store.languages.set(caller.platform, caller.chatId, locale);
    const t = translator(locale);
    const e = asError(await h.send('/kols sort:winrat'));
    assert.ok(e.example, locale);
    assert.deepEqual(e.labels, { example: t('errors.exampleLabel'), error: t('errors.errorLabel') }, locale);
  }
});
