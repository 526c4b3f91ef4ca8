import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError, DEFAULT_STORE_URL, loadConfig } from '../src/config.ts';

test('no configuration at all: console against the embedded sandbox, sqlite under ./data', () => {
  const c = loadConfig({});
  assert.equal(c.apiBaseUrl, undefined);
  assert.equal(c.discord, undefined);
  assert.equal(c.telegram, undefined);
  assert.equal(c.storeUrl, DEFAULT_STORE_URL);
  assert.equal(c.watchCron, undefined);
  assert.equal(c.feedRequestsPerMinute, 20, 'the feed is read on its budget, about every 3 s');
  assert.equal(c.logLevel, 'info');
});

test('WATCH_CRON keeps its fixed tick without a budget unless FEED_REQUESTS_PER_MINUTE is set too', () => {
  assert.equal(loadConfig({ WATCH_CRON: '*/30 * * * * *' }).feedRequestsPerMinute, undefined);
  const both = loadConfig({ WATCH_CRON: '*/30 * * * * *', FEED_REQUESTS_PER_MINUTE: '6' });
  assert.equal(both.watchCron, '*/30 * * * * *');
  assert.equal(both.feedRequestsPerMinute, 6);
  assert.equal(loadConfig({ FEED_REQUESTS_PER_MINUTE: '60' }).feedRequestsPerMinute, 60);
  for (const bad of ['0', '-1', 'fast', '601'])
    assert.throws(() => loadConfig({ FEED_REQUESTS_PER_MINUTE: bad }), /FEED_REQUESTS_PER_MINUTE/);
});

test('paid broadcasts are off unless TELEGRAM_PAID_BROADCAST=true, with a default or given Stars cap a day', () => {
  const tg = { TELEGRAM_BOT_TOKEN: '123456:ABCDEFGHIJKLMNOP' };
  assert.equal(loadConfig(tg).telegram?.paidBroadcast, undefined);
  assert.equal(loadConfig({ ...tg, TELEGRAM_PAID_BROADCAST: 'false' }).telegram?.paidBroadcast, undefined);
  assert.deepEqual(loadConfig({ ...tg, TELEGRAM_PAID_BROADCAST: 'true' }).telegram?.paidBroadcast, {
    maxStarsPerDay: 100,
  });
  const capped = loadConfig({ ...tg, TELEGRAM_PAID_BROADCAST: 'true', TELEGRAM_PAID_BROADCAST_STARS_PER_DAY: '2500' });
  assert.deepEqual(capped.telegram?.paidBroadcast, { maxStarsPerDay: 2500 });
  assert.throws(() => loadConfig({ ...tg, TELEGRAM_PAID_BROADCAST: 'yes' }), /TELEGRAM_PAID_BROADCAST must be/);
  for (const bad of ['0', '1.5', 'lots'])
    assert.throws(
      () => loadConfig({ ...tg, TELEGRAM_PAID_BROADCAST_STARS_PER_DAY: bad }),
      /TELEGRAM_PAID_BROADCAST_STARS_PER_DAY/,
    );
});

test('every invalid variable is named at once, and no secret value is echoed', () => {
  const secret = '123456:THIS-IS-A-VERY-SECRET-TOKEN-VALUE';
  try {
    loadConfig({
      KOL_API_BASE_URL: 'not a url',
      DISCORD_TOKEN: 'discord-secret-token-value',
      TELEGRAM_BOT_TOKEN: `${secret} with spaces`,
      STORE_URL: 'mysql://x',
      WATCH_CRON: 'every minute',
      LOG_LEVEL: 'loud',
      HTTP_PORT: '70000',
    });
    assert.fail('should throw');
  } catch (err) {
    assert.ok(err instanceof ConfigError);
    for (const name of [
      'KOL_API_BASE_URL',
      'DISCORD_APPLICATION_ID',
      'TELEGRAM_BOT_TOKEN',
      'STORE_URL',
      'WATCH_CRON',
      'LOG_LEVEL',
      'HTTP_PORT',
    ]) {
      assert.match(err.message, new RegExp(name), `names ${name}`);
    }
    assert.doesNotMatch(err.message, /SECRET-TOKEN|discord-secret/);
  }
});

test('a full configuration is parsed into typed sections and lists its secrets', () => {
  const c = loadConfig({
    KOL_API_BASE_URL: 'https://api.example.com/',
    KOL_API_KEY: 'k3y-k3y-k3y',
    DISCORD_TOKEN: 'discord-token-xyz',
    DISCORD_APPLICATION_ID: '123456789012345678',
    DISCORD_GUILD_ID: '223456789012345678',
    DISCORD_MESSAGE_CONTENT: 'true',
    TELEGRAM_BOT_TOKEN: '12345:AAAAAAAAAAAAAAAAAAAAAAAAAAAA',
    TELEGRAM_API_ROOT: 'http://127.0.0.1:8081',
    STORE_URL: 'redis://127.0.0.1:6379',
    WATCH_CRON: '*/10 * * * * *',
    LOG_LEVEL: 'debug',
    HTTP_PORT: '9090',
  });
  assert.equal(c.apiBaseUrl, 'https://api.example.com');
  assert.deepEqual(c.discord, {
    token: 'discord-token-xyz',
    applicationId: '123456789012345678',
    guildId: '223456789012345678',
    messageContent: true,
  });
  assert.equal(c.telegram?.apiRoot, 'http://127.0.0.1:8081');
  assert.equal(c.httpPort, 9090);
  assert.deepEqual(
    [...c.secrets].sort(),
    ['12345:AAAAAAAAAAAAAAAAAAAAAAAAAAAA', 'discord-token-xyz', 'k3y-k3y-k3y'].sort(),
  );
});

test('DISCORD_MESSAGE_CONTENT is off by default and must be true or false', () => {
  const base = { DISCORD_TOKEN: 'discord-token-xyz', DISCORD_APPLICATION_ID: '123456789012345678' };
  assert.equal(loadConfig(base).discord?.messageContent, false);
  assert.throws(
    () => loadConfig({ ...base, DISCORD_MESSAGE_CONTENT: 'yes' }),
    /DISCORD_MESSAGE_CONTENT.*must be true or false/,
  );
});

test('an upstream URL without a key is refused', () => {
  assert.throws(() => loadConfig({ KOL_API_BASE_URL: 'https://api.example.com' }), /KOL_API_KEY is required/);
});

test('STORE_CONNECT_TIMEOUT: 30 s by default, seconds or milliseconds, named when wrong', () => {
  assert.equal(loadConfig({}).storeConnectTimeoutMs, 30_000);
  assert.equal(loadConfig({ STORE_CONNECT_TIMEOUT: '3s' }).storeConnectTimeoutMs, 3_000);
  assert.equal(loadConfig({ STORE_CONNECT_TIMEOUT: '90' }).storeConnectTimeoutMs, 90_000);
  assert.equal(loadConfig({ STORE_CONNECT_TIMEOUT: '2500ms' }).storeConnectTimeoutMs, 2_500);
  for (const bad of ['soon', '-5', '0', '2h'])
    assert.throws(() => loadConfig({ STORE_CONNECT_TIMEOUT: bad }), /STORE_CONNECT_TIMEOUT/, bad);
});

test('the user and password inside STORE_URL are secrets, rediss:// and percent-encoding included; the default user is not', () => {
  const c = loadConfig({ STORE_URL: 'rediss://kolbot-user:p%40ss-w0rd-long@redis.example.com:6380/2' });
  assert.deepEqual([...c.secrets].sort(), ['kolbot-user', 'p%40ss-w0rd-long', 'p@ss-w0rd-long'].sort());
  assert.deepEqual(loadConfig({ STORE_URL: 'redis://default:only-the-password@127.0.0.1:6379' }).secrets, [
    'only-the-password',
  ]);
  assert.deepEqual(loadConfig({ STORE_URL: 'redis://:only-the-password@127.0.0.1:6379' }).secrets, [
    'only-the-password',
  ]);
  assert.deepEqual(loadConfig({ STORE_URL: 'redis://127.0.0.1:6379' }).secrets, []);
  assert.deepEqual(loadConfig({ STORE_URL: 'sqlite:./data/x.sqlite' }).secrets, []);
});

test('a STORE_URL that does not parse is named, not echoed', () => {
  assert.throws(
    () => loadConfig({ STORE_URL: 'redis//kolbot:hunter2-secret@host' }),
    (err: Error) => /STORE_URL/.test(err.message) && !err.message.includes('hunter2-secret'),
  );
});

test('several instances: shard plan and HTTP interactions variables, with clear refusals', () => {
  const base = { DISCORD_TOKEN: 'x.y.z', DISCORD_APPLICATION_ID: '123456789012345678' };
  const c = loadConfig({
    ...base,
    DISCORD_SHARD_COUNT: 'auto',
    DISCORD_SHARD_IDS: '0-2,5',
    DISCORD_PUBLIC_KEY: 'ab'.repeat(32),
    DISCORD_INTERACTIONS_PORT: '8081',
  });
  assert.deepEqual(c.discord?.shards, { count: 'auto', ids: [0, 1, 2, 5] });
  assert.deepEqual(c.discord?.interactions, { publicKey: 'ab'.repeat(32), port: 8081, host: '127.0.0.1' });
  assert.deepEqual(loadConfig({ ...base, DISCORD_SHARD_COUNT: '4' }).discord?.shards, { count: 4 });
  try {
    loadConfig({
      ...base,
      DISCORD_SHARD_COUNT: 'many',
      DISCORD_PUBLIC_KEY: 'nothex',
      DISCORD_INTERACTIONS_PORT: '8081',
    });
    assert.fail('should throw');
  } catch (err) {
    assert.ok(err instanceof ConfigError);
    assert.match(err.message, /DISCORD_SHARD_COUNT must be auto or a number/);
    assert.match(err.message, /DISCORD_PUBLIC_KEY must be the 64 hex/);
  }
  assert.throws(
    () => loadConfig({ ...base, DISCORD_SHARD_COUNT: '4', DISCORD_SHARD_IDS: '3-1' }),
    /DISCORD_SHARD_IDS must be shard ids/,
  );
  assert.throws(
    () => loadConfig({ ...base, DISCORD_SHARD_IDS: '0' }),
    /DISCORD_SHARD_COUNT is required when DISCORD_SHARD_IDS is set/,
  );
  assert.throws(() => loadConfig({ ...base, DISCORD_INTERACTIONS_PORT: '8081' }), /DISCORD_PUBLIC_KEY is required/);
});

test('a webhook secret shorter than 16 characters is a configuration error, without echoing it', () => {
  const env = {
    TELEGRAM_BOT_TOKEN: '12345:AAAAAAAAAAAAAAAAAAAAAAAAAAAA',
    TELEGRAM_WEBHOOK_URL: 'https://bot.example.com/hook',
  };
  for (const short of ['abc', 'fifteen-chars15']) {
    try {
      loadConfig({ ...env, TELEGRAM_WEBHOOK_SECRET: short });
      assert.fail(`${short} should be refused`);
    } catch (err) {
      assert.ok(err instanceof ConfigError);
      assert.match(err.message, /TELEGRAM_WEBHOOK_SECRET must be 16-256 characters/);
      assert.ok(!err.message.includes(short));
    }
  }
  assert.equal(
    loadConfig({ ...env, TELEGRAM_WEBHOOK_SECRET: 'sixteen-chars-16' }).telegram?.webhook?.secret,
    'sixteen-chars-16',
  );
});

test('servers listen on 127.0.0.1 unless a host variable says otherwise; a host that is not an address is refused', () => {
  assert.equal(loadConfig({}).httpHost, '127.0.0.1');
  assert.equal(loadConfig({ HTTP_HOST: '0.0.0.0' }).httpHost, '0.0.0.0');
  assert.throws(() => loadConfig({ HTTP_HOST: 'every interface' }), /HTTP_HOST must be an IP address/);
  assert.throws(
    () => loadConfig({ TELEGRAM_WEBHOOK_HOST: 'example.com' }),
    /TELEGRAM_WEBHOOK_HOST must be an IP address/,
  );
  const discord = {
    DISCORD_TOKEN: 'x.y.z',
    DISCORD_APPLICATION_ID: '123456789012345678',
    DISCORD_PUBLIC_KEY: 'ab'.repeat(32),
    DISCORD_INTERACTIONS_PORT: '8081',
  };
  assert.equal(loadConfig(discord).discord?.interactions?.host, '127.0.0.1', 'the interactions endpoint too');
  assert.equal(loadConfig({ ...discord, DISCORD_INTERACTIONS_HOST: '0.0.0.0' }).discord?.interactions?.host, '0.0.0.0');
  assert.throws(
    () => loadConfig({ ...discord, DISCORD_INTERACTIONS_HOST: 'lb.example.com' }),
    /DISCORD_INTERACTIONS_HOST must be an IP address/,
  );
});

test('call tracking settings: defaults, values, and a clear word for a bad one', () => {
  const d = loadConfig({});
  assert.equal(d.callsRetentionDays, 30);
  assert.equal(d.followupRequestsPerMinute, 20);
  const set = loadConfig({ CALLS_RETENTION_DAYS: '7', FOLLOWUP_REQUESTS_PER_MINUTE: '60' });
  assert.equal(set.callsRetentionDays, 7);
  assert.equal(set.followupRequestsPerMinute, 60);
  assert.throws(() => loadConfig({ CALLS_RETENTION_DAYS: 'a month' }), /CALLS_RETENTION_DAYS.*whole number of days/);
  assert.throws(() => loadConfig({ FOLLOWUP_REQUESTS_PER_MINUTE: '0' }), /FOLLOWUP_REQUESTS_PER_MINUTE.*at least 1/);
});

test('OWNER_IDS names owners by platform only; the quotas are whole numbers', () => {
  assert.deepEqual(loadConfig({}).owners, new Set());
  assert.deepEqual(loadConfig({}).quotas, {});
  const c = loadConfig({
    OWNER_IDS: ' telegram:123456789, discord:80351110224678912 ',
    OWNER_MAX_SUBSCRIPTIONS_PER_SERVER: '5',
    OWNER_MAX_SUBSCRIPTIONS_PER_PERSON: '3',
  });
  assert.deepEqual(c.owners, new Set(['telegram:123456789', 'discord:80351110224678912']));
  assert.deepEqual(c.quotas, { perServer: 5, perPerson: 3 });
  // A bare id could be either platform's; a Discord id is a snowflake.
  for (const bad of ['123456789', 'telegram:abc', 'discord:123', 'slack:U123'])
    assert.throws(() => loadConfig({ OWNER_IDS: bad }), /OWNER_IDS must be ids prefixed by their platform/);
  for (const bad of ['0', 'many', '-2'])
    assert.throws(() => loadConfig({ OWNER_MAX_SUBSCRIPTIONS_PER_SERVER: bad }), /OWNER_MAX_SUBSCRIPTIONS_PER_SERVER/);
});

test('the community pages: on at a local port on the console, off on a platform until WEB_URL is set', () => {
  assert.deepEqual(loadConfig({}).web, { url: undefined, host: '127.0.0.1', port: 8080, fallbackPort: true });
  const tg = { TELEGRAM_BOT_TOKEN: '12345:AAAAAAAAAAAAAAAAAAAAAAAAAAAA' };
  assert.equal(loadConfig(tg).web, undefined, 'off in production without WEB_URL');
  assert.deepEqual(
    loadConfig({ ...tg, WEB_URL: 'https://kolradar.example.com/', WEB_HOST: '0.0.0.0', WEB_PORT: '9000' }).web,
    {
      url: 'https://kolradar.example.com',
      host: '0.0.0.0',
      port: 9000,
      fallbackPort: false,
    },
  );
  assert.throws(() => loadConfig({ ...tg, WEB_PORT: '9000' }), /WEB_URL is required when WEB_PORT is set/);
  assert.throws(() => loadConfig({ WEB_URL: 'ftp://x.example.com' }), /WEB_URL must be an http\(s\) URL/);
  assert.throws(() => loadConfig({ WEB_URL: 'https://x.example.com/?a=1' }), /WEB_URL must have no \?query/);
  assert.throws(() => loadConfig({ WEB_PORT: '70000' }), /WEB_PORT must be at most 65535/);
});
