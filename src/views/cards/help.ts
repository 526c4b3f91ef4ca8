/** /help and /start: built from the loaded commands, so help cannot drift from what runs. */
import type { AnyCommand } from '../../core/command.ts';
import type { OptionSpec } from '../../core/options.ts';
import type { CardView, Field, Span, TextView } from '../model.ts';

type Commands = ReadonlyMap<string, AnyCommand>;

/** Every command with its description and first example. */
export function commandList(commands: Commands): Span[] {
  const out: Span[] = [];
  for (const c of [...commands.values()].sort((a, b) => a.name.localeCompare(b.name))) {
    if (out.length) out.push('\n');
    out.push({ b: `/${c.name}` }, ` — ${c.description}\n   `, { code: c.examples[0] });
  }
  out.push('\n\nOptions of one command: ', { code: '/help token' });
  return out;
}

export function helpList(commands: Commands): TextView {
  return { kind: 'text', text: commandList(commands) };
}

/** `/token <chain> <address> [key:value …]` */
function usage(c: AnyCommand): string {
  const specs = Object.entries(c.options as Record<string, { spec: OptionSpec }>).filter(([, o]) => !o.spec.internal);
  const pos = specs.filter(([, o]) => o.spec.positional).map(([n, o]) => (o.spec.required ? `<${n}>` : `[${n}]`));
  const named = specs.some(([, o]) => !o.spec.positional) ? ['[key:value …]'] : [];
  return [`/${c.name}`, ...pos, ...named].join(' ');
}

function describeOption(name: string, s: OptionSpec): Field {
  const type = s.list ? `list of ${s.type === 'string' ? 'values' : s.type}` : s.type === 'string' ? 'text' : s.type === 'boolean' ? 'yes/no' : s.type;
  const parts = [s.description, type];
  if (s.choices) parts.push(`one of: ${s.choices.join(', ')}`);
  if (s.min !== undefined && s.max !== undefined) parts.push(`${s.min}-${s.max}`);
  else if (s.min !== undefined) parts.push(`at least ${s.min}`);
  else if (s.max !== undefined) parts.push(`at most ${s.max}`);
  if (s.default !== undefined) parts.push(`default ${String(s.default)}`);
  if (s.example !== undefined) parts.push(`e.g. ${name}:${s.example}`);
  return { name: `${name}${s.required ? ' (required)' : ''}${s.positional ? ' · by position' : ''}`, value: parts.join(' · ') };
}

export function helpFor(c: AnyCommand): CardView {
  const description: Span[] = [c.description, '\n', { code: usage(c) }, '\nExamples:'];
  for (const e of c.examples) description.push('\n', { code: e });
  const specs = Object.entries(c.options as Record<string, { spec: OptionSpec }>).filter(([, o]) => !o.spec.internal);
  return {
    kind: 'card',
    title: `/${c.name}`,
    description,
    fields: specs.map(([n, o]) => describeOption(n, o.spec)),
    colour: 'brand',
  };
}
