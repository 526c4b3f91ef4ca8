// Sorting, filtering and both paging styles, checked against the generated data.
import { test } from 'node:test';
import { checkFilters } from './checks/filters.ts';
import { checkPaging } from './checks/paging.ts';
import { checkSorting } from './checks/sorting.ts';
import { start } from './helpers.ts';

test('sandbox queries', async (t) => {
  const sb = await start(t);
  await t.test('every sortField orders by its value, ties by id, DESC the reverse of ASC', (st) =>
    checkSorting(st, sb),
  );
  await t.test('filters keep exactly the matching records', (st) => checkFilters(st, sb));
  // Appends tweets, so it goes last.
  await t.test('paging walks every record once, also while tweets arrive', (st) => checkPaging(st, sb));
});
