import { autoCardSettings, cooldownText, parseCooldown } from '../src/core/autocard.ts';
import type { Command, CommandContext } from '../src/core/command.ts';
import { UserError } from '../src/core/errors.ts';
import { SETTING_OPTIONS } from '../src/alerts/settings.ts';

const EXAMPLE = '/autocard on cooldown:10m';

const options = SETTING_OPTIONS.autocard;

/** Whether the bot sees pastes here at all, and what to change if not. */
async function reach(ctx: CommandContext): Promise<string | undefined> {
  const t = ctx.t;
  if (ctx.caller.chatType === 'private') return t('lookup.autocardPrivate');
  const ask = ctx.capabilities.readsAllMessages;
  if (!ask) return undefined;
  // Unknown (the platform did not answer) reads as "cannot": the advice is harmless either way.
  const reads = await ask().catch(() => false);
  if (ctx.caller.platform === 'telegram') return t(reads ? 'lookup.telegramPrivacyOff' : 'lookup.telegramPrivacyOn');
  if (ctx.caller.platform === 'discord') return t(reads ? 'lookup.discordIntentOn' : 'lookup.discordIntentOff');
  return undefined;
}

export default {
  name: 'autocard',
  options,
  chatSettings: true,
  examples: [EXAMPLE, '/autocard', '/autocard off'],
  requires: 'manage',
  async run({ mode, cooldown }, ctx) {
    const settings = autoCardSettings(ctx.store);
    const { platform, chatId, threadId } = ctx.caller;
    const current = await settings.get(platform, chatId, threadId);
    let next = current;
    if (cooldown !== undefined) {
      const ms = parseCooldown(cooldown);
      if (ms === undefined) throw new UserError(ctx.t('lookup.badCooldown'), EXAMPLE);
      next = { ...next, cooldownMs: ms };
    }
    if (mode !== undefined) next = { ...next, enabled: mode === 'on' };
    const changed = next !== current;
    if (changed) await settings.put(platform, chatId, next, threadId);
    const values = { cooldown: cooldownText(next.cooldownMs) };
    const head = ctx.t(
      changed
        ? next.enabled
          ? 'lookup.autocardSetOn'
          : 'lookup.autocardSetOff'
        : next.enabled
          ? 'lookup.autocardOn'
          : 'lookup.autocardOff',
      values,
    );
    const note = next.enabled ? await reach(ctx) : undefined;
    return { kind: 'text', text: note ? `${head}\n${note}` : head };
  },
} satisfies Command<typeof options>;
