/**
 * Entry point of `npm start`. Signal handlers come first, before the bot's
 * modules load (discord.js and grammY take a moment): a SIGTERM at any point of
 * start-up still ends in a clean shutdown and exit 0.
 */
let onSignal: (why: string) => void = () => {};
const signal = new Promise<string>((resolve) => (onSignal = resolve));
process.once('SIGINT', () => onSignal('SIGINT'));
process.once('SIGTERM', () => onSignal('SIGTERM'));

try {
  // `.env` if present, loaded here rather than with node's --env-file-if-exists, which prints
  // ".env not found" over the console's banner (and again in every chart worker).
  try {
    process.loadEnvFile('.env');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  const { run } = await import('./bot.ts');
  process.exit(await run(signal));
} catch (err) {
  process.stderr.write(`kolradar failed to start: ${(err as Error).message}\n`);
  process.exit(1);
}
