/**
 * Records what this version writes: populates a fresh store through the real
 * commands and watcher, and saves its rows as test/store/versions/v<N>.json,
 * N being the schema version. Run after adding a migration (src/store/schema.ts),
 * so that the next migration is tested from data this version wrote.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '../src/store/index.ts';
import { SCHEMA_VERSION } from '../src/store/schema.ts';
import { populate } from '../test/helpers/populated.ts';
import { snapshotOf, writeSnapshot } from '../test/helpers/schema.ts';

const dir = await mkdtemp(join(tmpdir(), 'kolradar-snapshot-'));
try {
  const url = `sqlite:${join(dir, 'state.sqlite')}`;
  await populate(url);
  const store = await openStore(url);
  const rows = await snapshotOf(store);
  await store.close();
  await writeSnapshot(SCHEMA_VERSION, rows);
  process.stdout.write(`test/store/versions/v${SCHEMA_VERSION}.json: ${rows.length} rows\n`);
} finally {
  await rm(dir, { recursive: true, force: true });
}
