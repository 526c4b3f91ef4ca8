// `npm run sandbox -- [flags]`: run the sandbox upstream on its own.
import { parseArgs } from 'node:util';
import { type Faults, startSandbox } from './server.ts';

const HELP = `Usage: npm run sandbox -- [options]
  --port N            port (default 0: any free port)
  --host H            host (default 127.0.0.1)
  --key K             API key clients must send as x-api-key (default sandbox-key)
  --seed N            data seed (same seed, same data)
  --live R            append R new tweets per second (same as --feed-rate)
  --feed-rate R       new tweets per second in the live feed
  --index-delay MS    a live tweet shows in the feed MS after its tweet time (default 0)
  --authors S         feed authors: full (default), minimal (id and username only) or mix
  --latency MS        added latency per request
  --jitter MS         extra random latency up to MS
  --latency-p99 MS    with --latency as the median: log-normal latency with this 99th percentile
  --error-rate F      fraction answered 500/502/503
  --burst-5xx N       next N requests answered 503
  --rate-limit N[:S]  next N requests answered 429 with Retry-After S (default 1)
  --hang-rate F       fraction never answered
  --malformed-rate F  fraction of 200s with a truncated JSON body
  --drift-rate F      fraction of 200s breaking the schema
  --ops a,b           restrict faults to these operations (names or numbers 1-10)`;

function num(name: string, v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isFinite(n)) throw new Error(`--${name} needs a number, got "${v}"`);
  return n;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      key: { type: 'string' },
      seed: { type: 'string' },
      live: { type: 'string' },
      'feed-rate': { type: 'string' },
      'index-delay': { type: 'string' },
      'latency-p99': { type: 'string' },
      authors: { type: 'string' },
      latency: { type: 'string' },
      jitter: { type: 'string' },
      'error-rate': { type: 'string' },
      'burst-5xx': { type: 'string' },
      'rate-limit': { type: 'string' },
      'hang-rate': { type: 'string' },
      'malformed-rate': { type: 'string' },
      'drift-rate': { type: 'string' },
      ops: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log(HELP);
    return;
  }
  const faults: Faults = {};
  const set = <K extends keyof Faults>(k: K, v: Faults[K] | undefined) => {
    if (v !== undefined) faults[k] = v;
  };
  set('latencyMs', num('latency', values.latency));
  set('jitterMs', num('jitter', values.jitter));
  set('latencyP99Ms', num('latency-p99', values['latency-p99']));
  set('errorRate', num('error-rate', values['error-rate']));
  set('burst5xx', num('burst-5xx', values['burst-5xx']));
  set('hangRate', num('hang-rate', values['hang-rate']));
  set('malformedRate', num('malformed-rate', values['malformed-rate']));
  set('driftRate', num('drift-rate', values['drift-rate']));
  if (values['rate-limit'] !== undefined) {
    const [count, after] = values['rate-limit'].split(':');
    faults.rateLimit = { count: num('rate-limit', count) ?? 0, retryAfterSec: num('rate-limit', after ?? '1') ?? 1 };
  }
  if (values.ops)
    faults.operations = values.ops
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
  const live = num('feed-rate', values['feed-rate']) ?? num('live', values.live);
  const indexDelayMs = num('index-delay', values['index-delay']) ?? 0;
  if (indexDelayMs < 0) throw new Error('--index-delay must be 0 or more');
  const seed = num('seed', values.seed);
  const port = num('port', values.port);

  const authors = values.authors ?? 'full';
  if (authors !== 'full' && authors !== 'minimal' && authors !== 'mix')
    throw new Error(`--authors must be full, minimal or mix, got "${authors}"`);
  const sb = await startSandbox({
    authors,
    ...(port !== undefined ? { port } : {}),
    ...(values.host ? { host: values.host } : {}),
    ...(values.key ? { apiKey: values.key } : {}),
    ...(seed !== undefined ? { seed } : {}),
    live: live ? { tweetsPerSecond: live, indexDelayMs } : false,
    faults,
  });
  const d = sb.data;
  console.log(`sandbox listening on ${sb.url}`);
  console.log(`api key: ${sb.apiKey}`);
  console.log(
    `data: ${d.tokens.length} tokens, ${d.kols.length} KOLs, ${d.tweets.length} tweets (seed ${d.seed})${live ? `, live ${live} tweets/s indexed ${indexDelayMs} ms late` : ''}`,
  );
  console.log(`try: curl -H 'x-api-key: ${sb.apiKey}' '${sb.url}/v2/tweets?limit=2'`);
  console.log(`     KOL twitter id ${d.kols[0]?.twitter_id}, token ${d.tokens[0]?.chain_id}/${d.tokens[0]?.address}`);
  if (Object.keys(faults).length) console.log(`faults: ${JSON.stringify(faults)}`);

  let closing = false;
  const stop = () => {
    if (closing) return;
    closing = true;
    sb.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : String(e));
  process.exit(2);
});
