import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError, DEFAULT_STORE_URL, loadConfig } from '../src/config.ts';

test('no configuration at all: console against the embedded sandbox, sqlite under ./data', () => {
  const c = loadConfig({});
  assert.equal(c.apiBaseUrl, undefined);
  assert.equal(c.discord, undefined);
  assert.equal(c.telegram, undefined);
  assert.equal(c.storeUrl, DEFAULT_STORE_URL);
  assert.equal(c.watchCron, '*/30 * * * * *');
  assert.equal(c.logLevel, 'info');
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
    for (const name of ['KOL_API_BASE_URL', 'DISCORD_APPLICATION_ID', 'TELEGRAM_BOT_TOKEN', 'STORE_URL', 'WATCH_CRON', 'LOG_LEVEL', 'HTTP_PORT']) {
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
    TELEGRAM_BOT_TOKEN: '12345:AAAAAAAAAAAAAAAAAAAAAAAAAAAA',
    TELEGRAM_API_ROOT: 'http://127.0.0.1:8081',
    STORE_URL: 'redis://127.0.0.1:6379',
    WATCH_CRON: '*/10 * * * * *',
    LOG_LEVEL: 'debug',
    HTTP_PORT: '9090',
  });
  assert.equal(c.apiBaseUrl, 'https://api.example.com');
  assert.deepEqual(c.discord, { token: 'discord-token-xyz', applicationId: '123456789012345678', guildId: '223456789012345678' });
  assert.equal(c.telegram?.apiRoot, 'http://127.0.0.1:8081');
  assert.equal(c.httpPort, 9090);
  assert.deepEqual([...c.secrets].sort(), ['12345:AAAAAAAAAAAAAAAAAAAAAAAAAAAA', 'discord-token-xyz', 'k3y-k3y-k3y'].sort());
});

test('an upstream URL without a key is refused', () => {
  assert.throws(() => loadConfig({ KOL_API_BASE_URL: 'https://api.example.com' }), /KOL_API_KEY is required/);
});

test('a webhook secret shorter than 16 characters is a configuration error, without echoing it', () => {
  const env = { TELEGRAM_BOT_TOKEN: '12345:AAAAAAAAAAAAAAAAAAAAAAAAAAAA', TELEGRAM_WEBHOOK_URL: 'https://bot.example.com/hook' };
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
  assert.equal(loadConfig({ ...env, TELEGRAM_WEBHOOK_SECRET: 'sixteen-chars-16' }).telegram?.webhook?.secret, 'sixteen-chars-16');
});

test('servers listen on 127.0.0.1 unless a host variable says otherwise; a host that is not an address is refused', () => {
  assert.equal(loadConfig({}).httpHost, '127.0.0.1');
  assert.equal(loadConfig({ HTTP_HOST: '0.0.0.0' }).httpHost, '0.0.0.0');
  assert.throws(() => loadConfig({ HTTP_HOST: 'every interface' }), /HTTP_HOST must be an IP address/);
  assert.throws(() => loadConfig({ TELEGRAM_WEBHOOK_HOST: 'example.com' }), /TELEGRAM_WEBHOOK_HOST must be an IP address/);
});
