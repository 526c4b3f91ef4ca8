/**
 * Slash commands, buttons and autocomplete, turned into dispatcher calls.
 *
 * Discord wants an acknowledgement within 3 s. A command that passed its quick
 * checks is deferred at once, before its answer is known (the upstream can
 * take longer than 3 s, and a slow event loop eats into the window). The
 * deferred reply is public, because most answers are cards meant for the
 * channel. When the answer turns out to be an error, the public placeholder is
 * deleted and the error goes to the user alone as an ephemeral follow-up, so
 * the channel never sees a failed command (see answerDeferred). Mistakes caught before any
 * upstream call (invalid options, missing permission) skip the defer and are
 * answered ephemerally at once.
 */
import { pickLocale, translator } from '../../i18n/index.ts';
import {
  MessageFlags,
  ApplicationCommandOptionType,
  type AutocompleteInteraction,
  type ButtonInteraction,
  type ChatInputCommandInteraction,
  type CommandInteractionOption,
  type Interaction,
  type MessageContextMenuCommandInteraction,
  type ModalSubmitInteraction,
  type StringSelectMenuInteraction,
} from 'discord.js';
import type { Logger } from 'pino';
import type { Capabilities, RawArgs } from '../../core/command.ts';
import { asks, opensNew } from '../../core/actions.ts';
import { MODAL_FIELD_ID, toDiscordModal } from '../../views/render/discord-modal.ts';
import type { Dispatcher } from '../../core/dispatch.ts';
import type { View } from '../../domain/view.ts';
import { toDiscordPayload } from '../../views/render/discord.ts';
import type { Suggest } from './autocomplete.ts';
import { senderKey } from '../../core/budget.ts';
import { callerFor, canManageNow } from './caller.ts';
import { editOptions, ephemeralOptions, replyOptions } from './payload.ts';

export const CAPABILITIES: Capabilities = { pictures: true, buttons: true };

export interface InteractionDeps {
  readonly dispatcher: Dispatcher;
  readonly suggestKols: Suggest;
  /** What this bot can show and see here (Message Content intent); CAPABILITIES when absent. */
  readonly capabilities?: Capabilities;
  /** Token names and symbols for the token option; absent, it suggests nothing. */
  readonly suggestTokens?: Suggest;
  readonly log: Logger;
  /** Upstream budget of a deferred command; the token then lasts 15 min, so it can be generous. */
  readonly commandBudgetMs: number;
  /** Aborted at shutdown, so in-flight upstream calls stop. */
  readonly shutdown: AbortSignal;
  /**
   * Told before an interaction is acknowledged, and waited for (CLAIM_WAIT_MS at most): its token can then
   * finish it from any instance for 15 min (see takeover.ts), so an instance that dies once it has
   * acknowledged never leaves it "thinking…" where no other instance can see it. Never rejects.
   */
  readonly acknowledging?: (i: Interaction, how: Acknowledgement) => Promise<void>;
}

/** How an interaction was acknowledged: a public or private "thinking…" reply, or a deferred update of the clicked message. */
export type Acknowledgement = 'reply' | 'ephemeral' | 'update';

/** A quick answer must arrive well inside Discord's 3 s; past this it is deferred after all. */
const QUICK_MS = 1500;
const AUTOCOMPLETE_DEADLINE_MS = 2500;
/** The claim before an acknowledgement waits this long at most: a slow store must not cost Discord's 3 s. */
const CLAIM_WAIT_MS = 500;

/** Acknowledges `i` once its claim is stored (or CLAIM_WAIT_MS passed): see InteractionDeps.acknowledging. */
async function acknowledge(i: Interaction, how: Acknowledgement, d: InteractionDeps, ack: () => Promise<unknown>) {
  if (d.acknowledging) await within(d.acknowledging(i, how), CLAIM_WAIT_MS);
  await ack();
}

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
  const run = () =>
    d.dispatcher.run(i.commandName, raw, callerFor(i), {
      signal: runSignal(d),
      budgetMs: d.commandBudgetMs,
      capabilities: d.capabilities ?? CAPABILITIES,
      requestId: `discord:${i.id}`,
    });
  // Taken over from an instance that deferred it and died: only the answer is left to give.
  if (i.deferred) return answerDeferred(i, await run(), d.log);
  // Synchronous and cheap: decides whether this command may reach the upstream.
  const quick = d.dispatcher.refusesAtOnce(i.commandName, raw, canManageNow(i));
  // The defer goes out first; the command runs while it is in flight.
  const deferred = quick ? undefined : acknowledge(i, 'reply', d, () => i.deferReply());
  const work = run();
  if (deferred) {
    await deferred;
  } else {
    const view = await within(work, QUICK_MS);
    if (view) {
      // An error view renders ephemeral by itself; anything else would be a public answer.
      await i.reply(replyOptions(toDiscordPayload(view)));
      return;
    }
    await acknowledge(i, 'reply', d, () => i.deferReply());
  }
  await answerDeferred(i, await work, d.log);
}

/**
 * Replaces the deferred placeholder with the answer. An error must be seen by
 * the user alone, never by the channel, not even for a moment. Discord gives
 * the first follow-up after a deferred reply the defer's (public) visibility,
 * ignoring its flags, so the public "thinking…" placeholder is deleted first
 * and the error then sent as an ephemeral follow-up, a message of its own. Only
 * if the placeholder cannot be deleted is the error edited into it, so the user
 * is not left with "thinking…" for ever. A button has no placeholder: the
 * clicked message stays as it was and only the follow-up is sent.
 */
export async function answerDeferred(
  i:
    | ChatInputCommandInteraction
    | ButtonInteraction
    | StringSelectMenuInteraction
    | MessageContextMenuCommandInteraction
    | ModalSubmitInteraction,
  view: View,
  log: Logger,
): Promise<void> {
  const payload = toDiscordPayload(view);
  if (view.kind !== 'error') {
    await i.editReply(editOptions(payload));
    return;
  }
  if (i.isMessageComponent() || i.isModalSubmit()) {
    await i.followUp(ephemeralOptions(payload));
    return;
  }
  try {
    await i.deleteReply();
  } catch (err) {
    log.warn({ err }, 'could not delete the placeholder; the error goes into it');
    await i.editReply(editOptions(payload));
    return;
  }
  await i.followUp(ephemeralOptions(payload));
}

/**
 * Custom ids of every button on a message, and the values of its select menus'
 * options (each an action's id), at any depth of its component tree (as Discord sent it).
 */
function customIdsOf(components: readonly unknown[]): string[] {
  return components.flatMap((c) => {
    const o = c as { custom_id?: unknown; components?: unknown; options?: unknown };
    const values = Array.isArray(o.options) ? o.options.map((x: { value?: unknown }) => x.value) : [];
    return [
      ...(typeof o.custom_id === 'string' ? [o.custom_id] : []),
      ...values.filter((v): v is string => typeof v === 'string'),
      ...(Array.isArray(o.components) ? customIdsOf(o.components) : []),
    ];
  });
}

/** Paging, "more tweets" and the like: the clicked message is edited in place; errors go to the clicker only. */
export async function handleButton(
  i: ButtonInteraction | StringSelectMenuInteraction,
  d: InteractionDeps,
  /** The action: a button's custom id, or the option chosen in a select menu. */
  id = i.customId,
): Promise<void> {
  if (asks(id) && !i.deferred) return openModal(i, d, id);
  // A button on an alert answers the clicker privately; the alert stays for everyone.
  const fresh = opensNew(id);
  const taken = i.deferred; // taken over from an instance that deferred it and died
  const deferred = taken
    ? undefined
    : fresh
      ? acknowledge(i, 'ephemeral', d, () => i.deferReply({ flags: MessageFlags.Ephemeral }))
      : acknowledge(i, 'update', d, () => i.deferUpdate());
  const work = d.dispatcher.action(id, callerFor(i), {
    signal: runSignal(d),
    budgetMs: d.commandBudgetMs,
    capabilities: CAPABILITIES,
    // A modified client can name any custom id; only the clicked message's own buttons count.
    buttonsOnMessage: customIdsOf(i.message.components.map((c) => c.toJSON())),
  });
  if (deferred) await deferred;
  await answerDeferred(i, await work, d.log);
}

/**
 * A button that asks for a value: the modal must be the interaction's first
 * answer (Discord refuses one after a deferral), so only the quick checks run
 * first; a refusal is said privately instead.
 */
async function openModal(
  i: ButtonInteraction | StringSelectMenuInteraction,
  d: InteractionDeps,
  id: string,
): Promise<void> {
  const prompt = await d.dispatcher.prompt(id, callerFor(i), {
    buttonsOnMessage: customIdsOf(i.message.components.map((c) => c.toJSON())),
  });
  if ('view' in prompt) {
    await i.reply(ephemeralOptions(toDiscordPayload(prompt.view)));
    return;
  }
  // The modal carries the button's id: its submit names the same stored action.
  await i.showModal(toDiscordModal(prompt.ask, id));
}

/** A modal's submit: the value goes to the button's command, and the panel it came from is edited in place. */
export async function handleModal(i: ModalSubmitInteraction, d: InteractionDeps): Promise<void> {
  const answer = i.fields.getTextInputValue(MODAL_FIELD_ID);
  const fromMessage = i.isFromMessage();
  const deferred = i.deferred
    ? undefined
    : fromMessage
      ? acknowledge(i, 'update', d, () => i.deferUpdate())
      : acknowledge(i, 'ephemeral', d, () => i.deferReply({ flags: MessageFlags.Ephemeral }));
  const work = d.dispatcher.action(i.customId, callerFor(i), {
    signal: runSignal(d),
    budgetMs: d.commandBudgetMs,
    capabilities: CAPABILITIES,
    answer,
    ...(fromMessage ? { buttonsOnMessage: customIdsOf(i.message.components.map((c) => c.toJSON())) } : {}),
  });
  if (deferred) await deferred;
  await answerDeferred(i, await work, d.log);
}

export async function handleAutocomplete(i: AutocompleteInteraction, d: InteractionDeps): Promise<void> {
  const focused = i.options.getFocused(true);
  const spec = d.dispatcher.commands.get(i.commandName)?.options[focused.name]?.spec;
  const signal = AbortSignal.any([d.shutdown, AbortSignal.timeout(AUTOCOMPLETE_DEADLINE_MS)]);
  const typed = String(focused.value);
  // Each typist pays for their own misses (see autocomplete.ts).
  const call = { signal, sender: senderKey('discord', i.user.id) };
  const choices =
    spec?.autocomplete === 'kol'
      ? await d.suggestKols(typed, call)
      : spec?.autocomplete === 'token' && d.suggestTokens
        ? await d.suggestTokens(typed, call)
        : [];
  await i.respond(choices);
}

/** The answer while shutting down: short, private, and never starts work. */
export async function refuseWhileStopping(i: Interaction): Promise<void> {
  const text = translator(pickLocale(i.locale))('errors.restarting');
  if (i.isAutocomplete()) await i.respond([]);
  else if (i.isRepliable()) await i.reply(replyOptions(toDiscordPayload({ kind: 'error', message: text })));
}
