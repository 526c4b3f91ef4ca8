import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { asCard, asError, field, harness } from './harness.ts';

// The command's own budget: an ordinary lookup on a loaded machine fits it (the hang has a harness of its own).
const h = await harness();
after(() => h.close());

const SLOW = 'The analytics service is slow or unavailable right now. Try again in a minute.';
const token = h.sandbox.data.tokens.find((t) => t.chain_id === 'solana')!;

test('a burst of upstream 5xx gives the short "slow or unavailable" answer', async (t) => {
  t.after(() => h.sandbox.clearFaults());
  h.sandbox.setFaults({ burst5xx: 20 });
  const view = asError(await h.send('/kols sort:rug'));
  assert.equal(view.message, SLOW);
  h.sandbox.clearFaults();
  const ok = await h.send('/kols sort:rug');
  assert.equal(ok.kind, 'table', 'the same command works once the upstream recovers');
});

test('an upstream that never answers gives the same answer within the time budget', async (t) => {
  // A short budget: waiting it out is the scenario.
  const slow = await harness({ budgetMs: 800 });
  t.after(() => slow.close());
  slow.sandbox.setFaults({ hangRate: 1 });
  // A hung upstream never answers: an answer at all is the budget ending the call.
  const view = asError(await slow.send('/tokens sort:liquidity'));
  assert.equal(view.message, SLOW);
});

test('the token card still comes when only its tweets fail', async (t) => {
  t.after(() => h.sandbox.clearFaults());
  h.sandbox.setFaults({ burst5xx: 20, operations: ['tweetsByToken'] });
  const card = asCard(await h.send(`/token solana ${token.address}`));
  assert.equal(field(card, 'Latest tweets'), 'Could not load tweets right now.');
});
