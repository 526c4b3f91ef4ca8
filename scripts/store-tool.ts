/**
 * `npm run backup`, `npm run restore` and `npm run migrate-store`: one entry
 * point, the first argument naming the tool (src/store/tools.ts does the work).
 * Each prints one line a person can act on; a failure exits 1 with its reason.
 *
 *   npm run backup [-- --to backups/x.sqlite]   the store in STORE_URL, online
 *   npm run restore -- <backup file>            into STORE_URL, bot stopped
 *   npm run migrate-store -- --from sqlite:./data/kolradar.sqlite --to redis://host:6379 [--replace]
 */
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../src/config.ts';
import { describeStore } from '../src/store/index.ts';
import { backup, formatCounts, moveStore, restore, ToolError } from '../src/store/tools.ts';
import { scrub } from '../src/log.ts';

const stamp = () => new Date().toISOString().replace(/[:.]/g, '-').slice(0, 19);
const total = (counts: Record<string, number>) => Object.values(counts).reduce((a, b) => a + b, 0);

async function main(tool: string | undefined, argv: string[]): Promise<number> {
  if (tool === 'migrate-store') {
    const { values } = parseArgs({
      args: argv,
      options: { from: { type: 'string' }, to: { type: 'string' }, replace: { type: 'boolean' } },
    });
    if (!values.from || !values.to)
      throw new ToolError('usage: npm run migrate-store -- --from <store URL> --to <store URL>');
    const r = await moveStore(values.from, values.to, { replace: values.replace ?? false });
    say(
      [],
      `moved ${total(r.counts)} rows (schema version ${r.schema}) from ${describeStore(values.from)} to ${describeStore(values.to)}, ` +
        `read back and identical: ${formatCounts(r.counts)}. Point every instance's STORE_URL at the new store.`,
    );
    return 0;
  }
  const config = loadConfig(process.env);
  const where = describeStore(config.storeUrl);
  if (tool === 'backup') {
    const { values } = parseArgs({ args: argv, options: { to: { type: 'string' } } });
    const ext = config.storeUrl.startsWith('sqlite:') ? 'sqlite' : 'jsonl';
    const r = await backup(config.storeUrl, values.to ?? `backups/kolradar-${stamp()}.${ext}`);
    say(config.secrets, `backed up ${where} to ${r.path} (schema version ${r.schema}): ${formatCounts(r.counts)}`);
    return 0;
  }
  if (tool === 'restore') {
    const { positionals } = parseArgs({ args: argv, allowPositionals: true });
    const file = positionals[0];
    if (!file) throw new ToolError('usage: npm run restore -- <backup file> (with every instance stopped)');
    const r = await restore(config.storeUrl, file);
    say(
      config.secrets,
      `restored ${file} into ${where} (schema version ${r.schema}), read back and identical: ${formatCounts(r.counts)}; ` +
        `${r.queued} alerts were queued or held at the backup and go out from here (any of them sent after the backup is sent again)`,
    );
    return 0;
  }
  throw new ToolError('the tools are backup, restore and migrate-store');
}

/** Store descriptions never carry a password; the configured secrets are scrubbed all the same. */
function say(secrets: readonly string[], line: string) {
  process.stdout.write(`${scrub(line, secrets)}\n`);
}

const [tool, ...rest] = process.argv.slice(2);
try {
  process.exitCode = await main(tool, rest);
} catch (err) {
  const known = err instanceof ToolError || err instanceof ConfigError || (err as Error).name === 'StartupError';
  process.stderr.write(`${tool ?? 'store tool'} failed: ${known ? (err as Error).message : String(err)}\n`);
  process.exitCode = 1;
}
