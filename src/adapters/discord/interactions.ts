/**
 * Slash commands, buttons and autocomplete, turned into dispatcher calls.
 *
 * Discord wants an acknowledgement within 3 s. A command that passed its quick
 * checks is deferred at once, before its answer is known (the upstream can
 * take longer than 3 s, and a slow event loop eats into the window). The
 * deferred reply is public, because most answers are cards meant for the
 * channel. When the answer turns out to be an error, it ends up with the user
 * alone as an ephemeral follow-up and the public reply is deleted, so the
 * channel keeps no failed commands (see answerDeferred). Mistakes caught before any
 * upstream call (invalid options, missing permission) skip the defer and are
 * answered ephemerally at once.
 */
import {
  MessageFlags,
  ApplicationCommandOptionType,
  type AutocompleteInteraction,
  type ButtonInteraction,
  type ChatInputCommandInteraction,
  type CommandInteractionOption,
  type Interaction,
} from 'discord.js';
import type { Logger } from 'pino';
import type { AnyCommand, Capabilities, RawArgs } from '../../core/command.ts';
import { opensNew, type Dispatcher } from '../../core/dispatch.ts';
import { validate } from '../../core/parse.ts';
import type { View } from '../../views/model.ts';
import { toDiscordPayload } from '../../views/render/discord.ts';
import type { KolChoice } from './autocomplete.ts';
import { callerFor, canManageNow } from './caller.ts';
import { editOptions, ephemeralOptions, replyOptions } from './payload.ts';

export const CAPABILITIES: Capabilities = { pictures: true, buttons: true };

export interface InteractionDeps {
  readonly dispatcher: Dispatcher;
  readonly suggestKols: (typed: string, signal: AbortSignal) => Promise<KolChoice[]>;
  readonly log: Logger;
  /** Upstream budget of a deferred command; the token then lasts 15 min, so it can be generous. */
  readonly commandBudgetMs: number;
  /** Aborted at shutdown, so in-flight upstream calls stop. */
  readonly shutdown: AbortSignal;
}

/** A quick answer must arrive well inside Discord's 3 s; past this it is deferred after all. */
const QUICK_MS = 1500;
const AUTOCOMPLETE_DEADLINE_MS = 2500;

/** Option values as the dispatcher takes them; subcommand and group levels are flattened. */
export function rawArgs(options: readonly CommandInteractionOption[]): RawArgs {
  const raw: RawArgs = {};
  for (const o of options) {
    if (o.type === ApplicationCommandOptionType.Subcommand || o.type === ApplicationCommandOptionType.SubcommandGroup) {
      Object.assign(raw, rawArgs(o.options ?? []));
    } else if (o.value !== undefined && o.value !== null) {
      raw[o.name] = o.value;
    }
  }
  return raw;
}

/** True when the dispatcher will refuse without calling the upstream, so no defer is needed. */
function refusedAtOnce(command: AnyCommand | undefined, raw: RawArgs, interaction: Interaction): boolean {
  if (!command) return true;
  try {
    validate(command, raw);
  } catch {
    return true;
  }
  return command.requires === 'manage' && !canManageNow(interaction);
}

function runSignal(d: InteractionDeps): AbortSignal {
  return AbortSignal.any([d.shutdown, AbortSignal.timeout(d.commandBudgetMs + 2000)]);
}

function within<T>(work: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), ms)));
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

export async function handleCommand(i: ChatInputCommandInteraction, d: InteractionDeps): Promise<void> {
  const raw = rawArgs(i.options.data);
  // Synchronous and cheap: decides whether this command may reach the upstream.
  const quick = refusedAtOnce(d.dispatcher.commands.get(i.commandName), raw, i);
  // The defer goes out first; the command runs while it is in flight.
  const deferred = quick ? undefined : i.deferReply();
  const work = d.dispatcher.run(i.commandName, raw, callerFor(i), {
    signal: runSignal(d),
    budgetMs: d.commandBudgetMs,
    capabilities: CAPABILITIES,
  });
  if (deferred) {
    await deferred;
  } else {
    const view = await within(work, QUICK_MS);
    if (view) {
      // An error view renders ephemeral by itself; anything else would be a public answer.
      await i.reply(replyOptions(toDiscordPayload(view)));
      return;
    }
    await i.deferReply();
  }
  await answerDeferred(i, await work, d.log);
}

/**
 * Replaces the deferred placeholder with the answer. An error must end up
 * visible to the user alone, and Discord gives the first follow-up after a
 * deferred reply the defer's (public) visibility, ignoring its flags. So the
 * short error is edited in first (which resolves the placeholder and is the
 * answer if anything below fails), then sent again as an ephemeral follow-up,
 * and the public copy is deleted. A button has no placeholder: the clicked
 * message stays as it was and only the follow-up is sent.
 */
async function answerDeferred(i: ChatInputCommandInteraction | ButtonInteraction, view: View, log: Logger): Promise<void> {
  const payload = toDiscordPayload(view);
  if (view.kind !== 'error') {
    await i.editReply(editOptions(payload));
    return;
  }
  if (i.isButton()) {
    await i.followUp(ephemeralOptions(payload));
    return;
  }
  await i.editReply(editOptions(payload));
  try {
    await i.followUp(ephemeralOptions(payload));
  } catch (err) {
    log.warn({ err: errInfo(err) }, 'ephemeral follow-up failed; the error stays in the reply');
    return;
  }
  await i.deleteReply().catch((err: unknown) => log.warn({ err: errInfo(err) }, 'could not delete the public error'));
}

/** Custom ids of every button on a message, at any depth of its component tree (as Discord sent it). */
function customIdsOf(components: readonly unknown[]): string[] {
  return components.flatMap((c) => {
    const o = c as { custom_id?: unknown; components?: unknown };
    return [...(typeof o.custom_id === 'string' ? [o.custom_id] : []), ...(Array.isArray(o.components) ? customIdsOf(o.components) : [])];
  });
}

/** Paging, "more tweets" and the like: the clicked message is edited in place; errors go to the clicker only. */
export async function handleButton(i: ButtonInteraction, d: InteractionDeps): Promise<void> {
  // A button on an alert answers the clicker privately; the alert stays for everyone.
  const fresh = opensNew(i.customId);
  const deferred = fresh ? i.deferReply({ flags: MessageFlags.Ephemeral }) : i.deferUpdate();
  const work = d.dispatcher.action(i.customId, callerFor(i), {
    signal: runSignal(d),
    budgetMs: d.commandBudgetMs,
    capabilities: CAPABILITIES,
    // A modified client can name any custom id; only the clicked message's own buttons count.
    buttonsOnMessage: customIdsOf(i.message.components.map((c) => c.toJSON())),
  });
  await deferred;
  await answerDeferred(i, await work, d.log);
}

export async function handleAutocomplete(i: AutocompleteInteraction, d: InteractionDeps): Promise<void> {
  const focused = i.options.getFocused(true);
  const spec = d.dispatcher.commands.get(i.commandName)?.options[focused.name]?.spec;
  const signal = AbortSignal.any([d.shutdown, AbortSignal.timeout(AUTOCOMPLETE_DEADLINE_MS)]);
  const choices = spec?.autocomplete === 'kol' ? await d.suggestKols(String(focused.value), signal) : [];
  await i.respond(choices);
}

/** The answer while shutting down: short, private, and never starts work. */
export async function refuseWhileStopping(i: Interaction): Promise<void> {
  const text = 'The bot is restarting. Try again in a minute.';
  if (i.isAutocomplete()) await i.respond([]);
  else if (i.isRepliable()) await i.reply(replyOptions(toDiscordPayload({ kind: 'error', message: text })));
}

export function errInfo(err: unknown): Record<string, unknown> {
  if (!(err instanceof Error)) return { value: String(err) };
  const e = err as Error & { code?: unknown; status?: unknown };
  return { name: e.name, message: e.message, code: e.code, status: e.status };
}
