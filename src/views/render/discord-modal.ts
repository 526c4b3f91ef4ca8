/**
 * A button's question (domain/view.ts `Ask`) as a Discord modal: one text
 * field holding the current value. Cut to Discord's limits: a modal title and a
 * field label take at most 45 characters, a placeholder 100, a value 4000.
 */
import type { Ask } from '../../domain/view.ts';
import { clean, cut, singleLine } from '../text.ts';

export const MODAL_TITLE_MAX = 45;
export const MODAL_LABEL_MAX = 45;
export const MODAL_PLACEHOLDER_MAX = 100;
export const MODAL_VALUE_MAX = 4000;
export const MODAL_CUSTOM_ID_MAX = 100;
/** The one field's custom id: the submit carries it back with what was typed. */
export const MODAL_FIELD_ID = 'value';

export interface DiscordModal {
  title: string;
  custom_id: string;
  components: {
    type: 1;
    components: {
      type: 4;
      custom_id: string;
      style: 1;
      label: string;
      required: true;
      max_length: number;
      value?: string;
      placeholder: string;
    }[];
  }[];
}

const line = (s: string, max: number) => cut(singleLine(clean(s)), max);

export function toDiscordModal(ask: Ask, customId: string): DiscordModal {
  if (customId.length > MODAL_CUSTOM_ID_MAX) throw new RangeError(`modal custom id of ${customId.length} characters`);
  const value = line(ask.value, MODAL_VALUE_MAX);
  return {
    title: line(ask.title, MODAL_TITLE_MAX) || '…',
    custom_id: customId,
    components: [
      {
        type: 1,
        components: [
          {
            type: 4,
            custom_id: MODAL_FIELD_ID,
            style: 1,
            label: line(ask.label, MODAL_LABEL_MAX) || '…',
            required: true,
            max_length: MODAL_VALUE_MAX,
            ...(value ? { value } : {}),
            placeholder: line(`${ask.example}: ${ask.hint}`, MODAL_PLACEHOLDER_MAX),
          },
        ],
      },
    ],
  };
}
