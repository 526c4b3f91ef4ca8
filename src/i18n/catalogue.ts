/**
 * The shape every language file satisfies: the groups and plain keys of the
 * English source, and for each plural key the forms its own language uses
 * (`_one`, `_few`, `_many`, `_other`...). Which plural forms a language needs,
 * and that placeholders match, is checked by test/i18n/catalogue.test.ts:
 * a type cannot know Intl.PluralRules.
 */
import type en from './locales/en.ts';

export type PluralSuffix = 'zero' | 'one' | 'two' | 'few' | 'many' | 'other';
export const PLURAL_SUFFIX = /_(zero|one|two|few|many|other)$/;

type PluralBase<K> = K extends `${infer B}_${PluralSuffix}` ? B : never;

export type Shape<T> = {
  readonly [K in keyof T as K extends `${string}_${PluralSuffix}` ? never : K]: T[K] extends string
    ? string
    : Shape<T[K]>;
} & { readonly [K in `${PluralBase<keyof T & string>}_${PluralSuffix}`]?: string };

export type Catalogue = Shape<typeof en>;
