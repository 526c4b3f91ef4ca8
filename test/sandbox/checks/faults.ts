import assert from 'node:assert/strict';
import type { TestContext } from 'node:test';
import type { Sandbox } from '../../../src/sandbox/server.ts';
import { get } from '../helpers.ts';

/** each fault kind is observable and switchable at run time */
export async function checkFaults(t: TestContext, sb: Sandbox): Promise<void> {
  const feed = '/v2/tweets';
  const table = '/v2/x-users/analytics';

  await t.test('latency with jitter', async () => {
    sb.setFaults({ latencyMs: 60, jitterMs: 20 });
    const r = await get(sb, feed);
    assert.equal(r.status, 200);
    const delayed = sb.requests.at(-1)!;
    assert.equal(delayed.fault, 'latency');
    // A lower bound on a real wait cannot flake: a timer never fires early.
    assert.ok(delayed.ms >= 59, `held ${delayed.ms} ms`);
    sb.clearFaults();
    await get(sb, feed);
    assert.equal(sb.requests.at(-1)!.fault, undefined, 'switched off at run time');
  });

  await t.test('error rate answers 500, 502 or 503', async () => {
    sb.setFaults({ errorRate: 1 });
    const statuses = new Set<number>();
    for (let i = 0; i < 30; i++) {
      const r = await get(sb, feed);
      statuses.add(r.status);
      if (r.status !== 502)
        assert.deepEqual(r.body, { statusCode: r.status, message: r.body.message, error: r.body.error });
      else assert.equal(r.body, undefined, 'a 502 from the gateway is not JSON');
    }
    assert.deepEqual([...statuses].sort(), [500, 502, 503]);
    sb.setFaults({ errorRate: 0.3 });
    let failed = 0;
    for (let i = 0; i < 100; i++) if ((await get(sb, table)).status >= 500) failed++;
    assert.ok(failed > 10 && failed < 55, `${failed} of 100 failed`);
    sb.clearFaults();
  });

  await t.test('a burst of 503s, then normal answers', async () => {
    sb.setFaults({ burst5xx: 3 });
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push((await get(sb, feed)).status);
    assert.deepEqual(statuses, [503, 503, 503, 200, 200]);
  });

  await t.test('429 with Retry-After for the next N requests', async () => {
    sb.setFaults({ rateLimit: { count: 2, retryAfterSec: 7 } });
    const a = await get(sb, feed);
    assert.equal(a.status, 429);
    assert.equal(a.headers.get('retry-after'), '7');
    assert.deepEqual(a.body, { statusCode: 429, message: 'Too Many Requests', error: 'Too Many Requests' });
    assert.equal((await get(sb, feed)).status, 429);
    assert.equal((await get(sb, feed)).status, 200);
  });

  await t.test('malformed JSON is a truncated body', async () => {
    sb.setFaults({ malformedRate: 1 });
    const r = await get(sb, feed);
    assert.equal(r.status, 200);
    assert.equal(r.body, undefined);
    assert.throws(() => JSON.parse(r.text));
    assert.ok(r.text.startsWith('{"items":['));
    sb.clearFaults();
  });

  await t.test('schema drift is valid JSON that breaks the spec', async () => {
    sb.setFaults({ driftRate: 1 });
    let missing = 0;
    let retyped = 0;
    for (let i = 0; i < 12; i++) {
      const r = await get(sb, feed, { limit: 3 });
      assert.equal(r.status, 200);
      assert.ok(r.body, 'still JSON');
      for (const it of r.body.items) {
        if (!('id' in it)) missing++;
        else if (typeof it.id === 'string') retyped++;
      }
    }
    assert.ok(missing > 0 && retyped > 0, `missing ${missing}, retyped ${retyped}`);
    sb.clearFaults();
  });

  await t.test('faults can be limited to some operations', async () => {
    sb.setFaults({ errorRate: 1, operations: ['tweets', '9'] });
    assert.ok((await get(sb, feed)).status >= 500);
    assert.ok((await get(sb, table)).status >= 500);
    assert.equal((await get(sb, '/v2/tokens/analytics')).status, 200);
    assert.equal((await get(sb, `/v2/x-users/${sb.data.kols[0]!.twitter_id}/score`)).status, 200);
    assert.throws(() => sb.setFaults({ operations: ['nope'] }));
    sb.clearFaults();
    assert.equal((await get(sb, feed)).status, 200);
  });
}

/** A hang never answers, and close() still ends it. Closes the sandbox: run it last. */
export async function checkHangAndClose(sb: Sandbox): Promise<void> {
  sb.setFaults({ hangRate: 1, operations: ['kolScore'] });
  const kol = sb.data.kols[0]!.twitter_id;
  const pending = fetch(`${sb.url}/v2/x-users/${kol}/score`, { headers: { 'x-api-key': sb.apiKey } }).then(
    (r) => `answered ${r.status}`,
    () => 'failed',
  );
  while (sb.inFlight === 0) await new Promise((r) => setImmediate(r));
  assert.equal((await get(sb, '/v2/tweets')).status, 200, 'other operations still answer');
  const hung = sb.requests.findLast((x) => x.operation === 'kolScore')!;
  assert.deepEqual(
    [hung.fault, hung.status, hung.finished, sb.inFlight],
    ['hang', 0, 0, 1],
    'held: no answer, still open',
  );
  // A hang never ends by itself: were close() to wait for it, this would never return.
  await sb.close();
  assert.equal(await pending, 'failed', 'the hung request is cut off');
  await assert.rejects(fetch(`${sb.url}/v2/tweets`), 'closed for good');
}
