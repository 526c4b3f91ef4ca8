/**
 * What every card builder takes for its words and numbers: a `t` (English by
 * default, so a builder called without one reads as before) and the formats of
 * that `t`'s language.
 */
import { formats, type Formats } from '../../i18n/format.ts';
import { languageOf, translator, type T } from '../../i18n/index.ts';

export type { Formats, T };

export const ENGLISH: T = translator('en');

/** The number, percent and time formats of `t`'s language. */
export const fmt = (t: T): Formats => formats(languageOf(t));
