/** /help and /start: built from the loaded commands, so help cannot drift from what runs. */
import { audienceOf, type AnyCommand, type SomeCommand } from '../../core/command.ts';
import type { OptionSpec } from '../../core/options.ts';
import { commandDescription, optionDescription, type T } from '../../i18n/index.ts';
import type { CardView, Field, Span, TextView } from '../../domain/view.ts';

type Commands = ReadonlyMap<string, AnyCommand>;

/** Every command with its description and first example. */
export function commandList(commands: Commands, t: T): Span[] {
  const out: Span[] = [];
  for (const c of [...commands.values()].sort((a, b) => a.name.localeCompare(b.name))) {
    if (out.length) out.push('\n');
    out.push({ b: `/${c.name}` }, ` — ${commandDescription(t, c)}\n   `, { code: c.examples[0] });
  }
  out.push(`\n\n${t('help.commands', { count: commands.size })} ${t('help.more')} `, { code: '/help token' });
  return out;
}

/**
 * /start in a group: a short list for its members, one line a command, without the
 * admins' commands (their menu has them, and /help lists everything).
 */
export function memberList(commands: Commands, t: T): Span[] {
  const out: Span[] = [t('start.group'), '\n'];
  for (const c of [...commands.values()].sort((a, b) => a.name.localeCompare(b.name)))
    if (audienceOf(c) === 'members') out.push({ b: `/${c.name}` }, ` — ${commandDescription(t, c)}\n`);
  out.push(`\n${t('start.groupAdmins')}`);
  return out;
}

export function helpList(commands: Commands, t: T): TextView {
  return { kind: 'text', text: commandList(commands, t) };
}

/** `/token <chain> <address> [key:value …]` */
function usage(c: SomeCommand): string {
  const specs = Object.entries(c.options as Record<string, { spec: OptionSpec }>).filter(([, o]) => !o.spec.internal);
  const pos = specs.filter(([, o]) => o.spec.positional).map(([n, o]) => (o.spec.required ? `<${n}>` : `[${n}]`));
  const named = specs.some(([, o]) => !o.spec.positional) ? ['[key:value …]'] : [];
  return [`/${c.name}`, ...pos, ...named].join(' ');
}

// Option descriptions come from the catalogue where it has them (options.<command>.<option>), else the registry's English.
function describeOption(command: AnyCommand, name: string, s: OptionSpec, t: T): Field {
  const parts = [
    optionDescription(t, command.name, name, command.optionTexts[name] ?? ''),
    s.list ? t(`help.listOf.${s.type}`) : t(`help.type.${s.type}`),
  ];
  if (s.choices) parts.push(t('help.oneOf', { choices: s.choices.join(', ') }));
  if (s.min !== undefined && s.max !== undefined) parts.push(t('help.range', { min: s.min, max: s.max }));
  else if (s.min !== undefined) parts.push(t('help.atLeast', { min: s.min }));
  else if (s.max !== undefined) parts.push(t('help.atMost', { max: s.max }));
  if (s.default !== undefined) parts.push(t('help.default', { value: String(s.default) }));
  if (s.example !== undefined) parts.push(t('help.example', { example: `${name}:${s.example}` }));
  const flags = [s.required ? ` (${t('help.required')})` : '', s.positional ? ` · ${t('help.byPosition')}` : ''].join(
    '',
  );
  return { name: `${name}${flags}`, value: parts.join(' · ') };
}

export function helpFor(c: AnyCommand, t: T): CardView {
  const description: Span[] = [commandDescription(t, c), '\n', { code: usage(c) }, `\n${t('help.examples')}`];
  for (const e of c.examples) description.push('\n', { code: e });
  const specs = Object.entries(c.options as Record<string, { spec: OptionSpec }>).filter(([, o]) => !o.spec.internal);
  return {
    kind: 'card',
    title: `/${c.name}`,
    description,
    fields: specs.map(([n, o]) => describeOption(c, n, o.spec, t)),
    colour: 'brand',
  };
}
