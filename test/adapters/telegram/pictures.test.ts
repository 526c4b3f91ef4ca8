// Pictures: a view with a PNG goes out as a photo with its caption; buttons on it swap the picture in place.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { App } from '../../../src/app.ts';
import type { Command } from '../../../src/core/command.ts';
import { createDispatcher } from '../../../src/core/dispatch.ts';
import { opt } from '../../../src/core/options.ts';
import { buildRegistry, CATALOGUE_TEXTS } from '../../../src/core/registry.ts';
import { silentLogger } from '../../../src/log.ts';
import type { CardView } from '../../../src/domain/view.ts';
import { tinyPng } from '../../fakes/telegram/index.ts';
import { PATIENCE_MS } from '../../helpers/wait.ts';
import { button, privateChat, rig } from './helpers.ts';
import { sharedChartPool } from '../../../src/views/charts/pool.ts';

const options = { page: opt.integer({ positional: true, min: 1, max: 9 }) };

/** A command whose answer carries a picture: pages 1, 2 and 5 short, 3 too long for a caption, 4 without a picture; 5 leads to 4. */
const chart = {
  name: 'chart',
  options,
  examples: ['/chart 1'],
  async run({ page = 1 }) {
    const view: CardView = {
      kind: 'card',
      title: `Chart ${page}`,
      description: page === 3 ? 'Long text. '.repeat(150) : `Page ${page} <of> charts`,
      ...(page === 4
        ? {}
        : { picture: { png: tinyPng(40 + page, 30), name: `chart-${page}.png`, alt: `Chart ${page}` } }),
      actions: [{ label: 'Next', command: 'chart', options: { page: page === 5 ? 4 : page + 1 } }],
    };
    return view;
  },
} satisfies Command<typeof options>;

const withChart = (app: App) =>
  createDispatcher({
    charts: sharedChartPool(),
    commands: buildRegistry([...app.dispatcher.commands.values(), chart], {
      commands: { ...CATALOGUE_TEXTS.commands, chart: 'A test chart' },
      options: { ...CATALOGUE_TEXTS.options, chart: { page: 'Page' } },
    }),
    api: app.api,
    store: app.store,
    log: silentLogger(),
  });

test('a picture is sent as a photo with its caption and buttons; Next swaps the picture in place', async (t) => {
  const r = await rig(t, { dispatcher: withChart });
  const chat = privateChat(701);
  const first = await r.ask(chat, '/chart 1');
  assert.equal(first.isCaption, true);
  assert.equal(first.photo?.source, 'upload');
  assert.equal(first.photo?.width, 41);
  assert.deepEqual(first.photo?.data, tinyPng(41, 30));
  assert.equal(first.text, 'Chart 1\n\nPage 1 <of> charts');
  const q = r.fake.pressButton({ chatId: chat.id, messageId: first.message_id, data: button(first, 'Next') });
  const swapped = await r.fake.waitForEdit(chat.id, (m) => m.message_id === first.message_id);
  assert.equal(swapped.photo?.width, 42, 'the new picture');
  assert.match(swapped.text!, /^Chart 2/);
  assert.equal(r.fake.answersFor(q).length, 1);

  // Page 3's text does not fit a caption: the caption is its title, the text follows with the buttons.
  const q3 = r.fake.pressButton({ chatId: chat.id, messageId: first.message_id, data: button(swapped, 'Next') });
  const third = await r.fake.waitForEdit(chat.id, (m) => m.message_id === first.message_id);
  assert.equal(third.text, 'Chart 3');
  const follow = await r.fake.waitForMessage(chat.id, (m) => m.message_id !== first.message_id);
  assert.ok(follow.text!.startsWith('Chart 3\n\nLong text.'));
  assert.ok(follow.reply_markup, 'the buttons sit under the text');
  assert.equal(r.fake.answersFor(q3).length, 1);

  // A photo whose next page has no picture keeps the photo and takes the text as its caption.
  const photoWith3 = await r.ask(chat, '/chart 3');
  assert.equal(photoWith3.text, 'Chart 3');
  const text3 = await r.fake.waitForMessage(chat.id);
  assert.ok(text3.text!.includes('Long text.'));
  const p1 = await r.ask(chat, '/chart 5');
  r.fake.pressButton({ chatId: chat.id, messageId: p1.message_id, data: button(p1, 'Next') });
  const captioned = await r.fake.waitForEdit(
    chat.id,
    (m) => m.message_id === p1.message_id && m.text!.startsWith('Chart 4'),
  );
  assert.equal(captioned.isCaption, true);
  assert.equal(captioned.photo?.width, 45, 'the picture stays');
  assert.equal(captioned.text, 'Chart 4\n\nPage 4 <of> charts');
});

test('a chart whose table is too long for a caption: paging updates the picture and the table together', async (t) => {
  const r = await rig(t);
  const chat = privateChat(902);
  const kol = [...r.sb.data.kols].sort((a, b) => b.follower_count - a.follower_count)[0]!;
  await r.ask(chat, `/momentum @${kol.username} limit:25`);
  // The picture comes first; the table with the buttons follows it.
  await r.fake.waitForMessage(chat.id, (m) => m.reply_markup !== undefined && !m.photo, PATIENCE_MS);
  const msgs = r.fake.messages(chat.id);
  const photoMsg = msgs.find((m) => m.photo)!;
  const textMsg = msgs.find((m) => m.reply_markup && !m.photo)!;
  assert.ok(photoMsg && textMsg, 'a picture, then the table with the buttons');
  const before = Buffer.from(photoMsg.photo!.data!);
  r.fake.pressButton({ chatId: chat.id, messageId: textMsg.message_id, data: button(textMsg, 'Next') });
  await r.fake.waitForEdit(chat.id, (m) => m.message_id === textMsg.message_id);
  const after = r.fake.messages(chat.id).find((m) => m.message_id === photoMsg.message_id)!;
  assert.ok(!before.equals(Buffer.from(after.photo!.data!)), 'the picture shows the new page too');
  assert.equal(r.fake.messages(chat.id).length, msgs.length, 'nothing new posted');
});
