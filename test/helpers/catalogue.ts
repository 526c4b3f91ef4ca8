/** A language's catalogue as flat text: dotted keys, plural forms under their own keys (`help.commands_one`). */
import { CATALOGUES, type Locale } from '../../src/i18n/index.ts';

type Tree = { readonly [k: string]: string | Tree };

function flatten(tree: Tree, prefix: string, out: Map<string, string>): Map<string, string> {
  for (const [k, v] of Object.entries(tree)) {
    if (typeof v === 'string') out.set(prefix + k, v);
    else flatten(v, `${prefix}${k}.`, out);
  }
  return out;
}

export function catalogueTexts(locale: Locale): Map<string, string> {
  return flatten(CATALOGUES[locale] as unknown as Tree, '', new Map());
}
