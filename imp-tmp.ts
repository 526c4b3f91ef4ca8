import { alertHarness, caller } from './test/alerts/harness.ts';
const cleanups: (() => unknown)[] = [];
const fakeT = {
  after: (f: () => unknown) => {
    cleanups.push(f);
  },
} as never;
const OPEN = { token_score: '0', kol_score: '0', followers: '0', cooldown: '0' };
let clock = Date.parse(process.argv[2] ?? '2026-11-23T21:30:00Z');
const h = await alertHarness(fakeT, { now: () => clock });
await h.dispatcher.run('subscribe', OPEN, caller('q'));
await h.dispatcher.text('/alerts quiet 23:00-07:00 tz:Europe/Berlin', caller('q'));
await h.cycle();
console.log('c1', h.sent.length);
const [k1, k2, k3] = h.sb.data.kols;
const tokens = h.sb.data.tokens.filter((x) => /^[A-Z0-9]+$/.test(x.symbol)).slice(0, 4);
h.sb.addTweets(1, { token: tokens[0]!.id, kol: k1!.id, tokenScore: 90, kolScore: 90 });
await h.cycle();
console.log('c2', h.sent.length);
clock += 3600_000;
h.sb.addTweets(1, { token: tokens[1]!.id, kol: k1!.id, tokenScore: 90, kolScore: 90 });
await h.cycle();
console.log('c3', h.sent.length);
for (const c of cleanups.reverse()) await c();
process.exit(0);
