/**
 * "An entry version N queued and had not sent yet": a store of version N
 * (versions/v<N>.json) with one more outbox entry written by that version's
 * code beside it (versions/v<N>-<what>.json, its batch and entry rows), listed in
 * the pending batches as the outbox lists it. Then delivered by today's code, to
 * show what the upgrade sends of it.
 */
import type { TestContext } from 'node:test';
import { readFile } from 'node:fs/promises';
import { createDelivery } from '../../src/alerts/delivery.ts';
import type { Sender } from '../../src/alerts/delivery/types.ts';
import type { View } from '../../src/domain/view.ts';
import { silentLogger } from '../../src/log.ts';
import type { Store } from '../../src/store/index.ts';
import { rawOnly, readSnapshot, rebased, rowsOf, seedVersion, shiftFor, type SnapshotRow } from './schema.ts';

/** A row's value inside its keyv envelope. */
export const inner = (v: unknown) => (v as { value: unknown } | undefined)?.value;

/** Seeds version `version` and the queued entry of versions/v<version>-<what>.json into the empty store at `url`. */
export async function seedQueued<E>(
  url: string,
  version: number,
  what: string,
): Promise<{ before: SnapshotRow[]; queued: SnapshotRow[]; entry: E }> {
  const now = Date.now();
  const before = await seedVersion(url, version, now);
  const file = new URL(`../store/versions/v${version}-${what}.json`, import.meta.url);
  // Moved with the store it was queued in (its own rows carry no expiry to tell when).
  const queued = rebased(
    JSON.parse(await readFile(file, 'utf8')) as SnapshotRow[],
    shiftFor(await readSnapshot(version), now),
  );
  const entry = inner(queued.find((r) => r.key.startsWith('outbox::e:'))!.value) as E;
  const batch = queued.find((r) => r.key.startsWith('outbox::b:'))!.key.slice('outbox::b:'.length);
  const pending = inner(before.find((r) => r.key === 'outbox::pending')!.value) as string[];
  const raw = await rawOnly(url);
  await raw.store.putRows(
    rowsOf([...queued, { key: 'outbox::pending', value: { value: [...pending, batch] }, ttlMs: null }]),
  );
  await raw.close();
  return { before, queued, entry };
}

/** Delivers what `store` holds to a console sender; returns each send, with its nonce, in order. */
export async function deliverAll(
  t: TestContext,
  store: Store,
): Promise<{ nonce: string; view: View; messageId: string }[]> {
  const sent: { nonce: string; view: View; messageId: string }[] = [];
  const sender: Sender = {
    platform: 'console',
    async send(_chatId, view, nonce) {
      const messageId = String(sent.length + 1);
      sent.push({ nonce, view, messageId });
      return { kind: 'sent', messageId };
    },
  };
  const delivery = createDelivery({
    outbox: store.outbox,
    subscriptions: store.subscriptions,
    languages: store.languages,
    senders: [sender],
    log: silentLogger(),
  });
  t.after(() => delivery.stop());
  await delivery.drain();
  await delivery.drain();
  return sent;
}
