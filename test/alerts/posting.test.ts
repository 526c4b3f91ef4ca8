// How each outbox entry is posted at its destination: a role is pinged on new alerts only (and on
// summaries when the admin asked), never on test alerts, KOL additions or follow-ups; a forum post
// is titled with the token; a person's own subscription is marked as a DM.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { postingOf } from '../../src/alerts/delivery/compose.ts';
import type { OutboxEntry } from '../../src/store/outbox.ts';
import type { Subscription } from '../../src/store/subscriptions.ts';

const ROLE = '123456789012345678';
const sub = (posting: Subscription['posting'], isGroup = true) =>
  ({ id: 'discord:1', platform: 'discord', chatId: '1', isGroup, ...(posting ? { posting } : {}) }) as Subscription;
const entry = (content: Record<string, unknown>) => ({ id: 'e', content }) as unknown as OutboxEntry;
const alert = (test?: boolean) =>
  entry({
    kind: 'alert',
    token: { name: 'dogwifhat', symbol: 'WIF' },
    kols: [],
    actions: [],
    ...(test ? { test } : {}),
  });

test('a role is pinged on a new alert, not on a test alert, a KOL added, a follow-up or (unasked) a summary', () => {
  const s = sub({ pingRole: ROLE });
  assert.equal(postingOf(alert(), s)?.ping, ROLE);
  assert.equal(postingOf(alert(true), s)?.ping, undefined);
  for (const kind of ['more', 'followup', 'merged', 'digest', 'notice'])
    assert.equal(postingOf(entry({ kind }), s)?.ping, undefined, kind);
});

test('ping_summaries: merged bursts, quiet-hour summaries and digests ping too; follow-ups still do not', () => {
  const s = sub({ pingRole: ROLE, pingSummaries: true });
  assert.equal(postingOf(entry({ kind: 'merged' }), s)?.ping, ROLE);
  assert.equal(postingOf(entry({ kind: 'digest' }), s)?.ping, ROLE);
  assert.equal(postingOf(entry({ kind: 'followup' }), s)?.ping, undefined);
});

test('a forum post is titled with the token; a person’s own subscription is a DM; a plain one asks nothing', () => {
  assert.deepEqual(postingOf(alert(), sub({ forum: { tags: ['9'] } })), {
    forum: { tags: ['9'] },
    title: '$WIF dogwifhat',
    mayPay: true,
  });
  assert.equal(postingOf(alert(), sub({ personal: true }, false))?.dm, true);
  // Not every subscription without a group is a DM: only one made in a DM says so.
  assert.equal(postingOf(alert(), sub(undefined, false))?.dm, undefined);
  assert.deepEqual(postingOf(alert(), sub(undefined)), { title: '$WIF dogwifhat', mayPay: true });
  assert.equal(postingOf(alert(), undefined), undefined);
});
