// Discord's documented message limits, answered as Discord does (400, code 50035 with a
// nested `errors` tree) so an adapter that overflows a limit fails here, not in production.

type ErrorTree = { [key: string]: ErrorTree | { code: string; message: string }[] };

export class FormErrors {
  readonly tree: ErrorTree = {};
  empty = true;

  add(path: (string | number)[], code: string, message: string): void {
    this.empty = false;
    let node = this.tree;
    for (const key of path) {
      const next = node[String(key)];
      if (next === undefined || Array.isArray(next)) {
        const created: ErrorTree = {};
        node[String(key)] = created;
        node = created;
      } else {
        node = next;
      }
    }
    const list = (node['_errors'] ?? []) as { code: string; message: string }[];
    list.push({ code, message });
    node['_errors'] = list;
  }

  body(): Record<string, unknown> {
    return { message: 'Invalid Form Body', code: 50035, errors: this.tree };
  }
}

function maxLength(errors: FormErrors, path: (string | number)[], value: unknown, max: number): number {
  if (value === undefined || value === null) return 0;
  const text = String(value);
  if (text.length > max) errors.add(path, 'BASE_TYPE_MAX_LENGTH', `Must be ${max} or fewer in length.`);
  return text.length;
}

function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

function asRecord(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
}

function validateEmbeds(errors: FormErrors, embeds: unknown[]): void {
  if (embeds.length > 10) errors.add(['embeds'], 'BASE_TYPE_MAX_LENGTH', 'Must be 10 or fewer in length.');
  let total = 0;
  embeds.forEach((raw, i) => {
    const embed = asRecord(raw);
    total += maxLength(errors, ['embeds', i, 'title'], embed['title'], 256);
    total += maxLength(errors, ['embeds', i, 'description'], embed['description'], 4096);
    total += maxLength(errors, ['embeds', i, 'footer', 'text'], asRecord(embed['footer'])['text'], 2048);
    total += maxLength(errors, ['embeds', i, 'author', 'name'], asRecord(embed['author'])['name'], 256);
    const fields = asArray(embed['fields']);
    if (fields.length > 25)
      errors.add(['embeds', i, 'fields'], 'BASE_TYPE_MAX_LENGTH', 'Must be 25 or fewer in length.');
    fields.forEach((rawField, j) => {
      const field = asRecord(rawField);
      for (const [key, max] of [
        ['name', 256],
        ['value', 1024],
      ] as const) {
        const value = field[key];
        if (value === undefined || value === null || String(value).length === 0) {
          errors.add(['embeds', i, 'fields', j, key], 'BASE_TYPE_REQUIRED', 'This field is required');
        }
        total += maxLength(errors, ['embeds', i, 'fields', j, key], value, max);
      }
    });
  });
  if (total > 6000) errors.add(['embeds'], 'MAX_EMBED_SIZE_EXCEEDED', 'Embed size exceeds maximum size of 6000');
}

function validateComponents(errors: FormErrors, rows: unknown[]): void {
  if (rows.length > 5) errors.add(['components'], 'BASE_TYPE_MAX_LENGTH', 'Must be 5 or fewer in length.');
  rows.forEach((rawRow, i) => {
    const row = asRecord(rawRow);
    if (row['type'] !== 1) return;
    const children = asArray(row['components']);
    if (children.length === 0 || children.length > 5) {
      errors.add(['components', i, 'components'], 'BASE_TYPE_BAD_LENGTH', 'Must be between 1 and 5 in length.');
    }
    children.forEach((rawChild, j) => {
      const child = asRecord(rawChild);
      const path = ['components', i, 'components', j];
      if (child['type'] === 3) validateSelect(errors, path, child, children.length);
      if (child['type'] !== 2) return;
      maxLength(errors, [...path, 'label'], child['label'], 80);
      if (child['style'] === 5) {
        if (typeof child['url'] !== 'string')
          errors.add([...path, 'url'], 'BASE_TYPE_REQUIRED', 'This field is required');
      } else if (child['style'] !== 6) {
        const id = child['custom_id'];
        if (typeof id !== 'string' || id.length < 1 || id.length > 100) {
          errors.add([...path, 'custom_id'], 'BASE_TYPE_BAD_LENGTH', 'Must be between 1 and 100 in length.');
        }
      }
    });
  });
}

/**
 * A string select menu (type 3): alone in its row; custom id 1-100; 1-25
 * options, each label and value 1-100 (values distinct), description up to
 * 100; placeholder up to 150; min_values 0-25, max_values 1-25 and at most the options.
 */
function validateSelect(
  errors: FormErrors,
  path: (string | number)[],
  select: Record<string, unknown>,
  rowSize: number,
): void {
  if (rowSize !== 1) errors.add(path, 'COMPONENT_LAYOUT_WIDTH_EXCEEDED', 'A select menu takes a whole row.');
  between(errors, [...path, 'custom_id'], select['custom_id'], 1, 100);
  between(errors, [...path, 'placeholder'], select['placeholder'], 0, 150, false);
  const options = asArray(select['options']);
  if (options.length < 1 || options.length > 25)
    errors.add([...path, 'options'], 'BASE_TYPE_BAD_LENGTH', 'Must be between 1 and 25 in length.');
  const seen = new Set<unknown>();
  options.forEach((raw, k) => {
    const o = asRecord(raw);
    between(errors, [...path, 'options', k, 'label'], o['label'], 1, 100);
    between(errors, [...path, 'options', k, 'value'], o['value'], 1, 100);
    between(errors, [...path, 'options', k, 'description'], o['description'], 0, 100, false);
    if (seen.has(o['value']))
      errors.add(
        [...path, 'options', k, 'value'],
        'SELECT_COMPONENT_OPTION_VALUE_DUPLICATED',
        'Values must be unique.',
      );
    seen.add(o['value']);
  });
  const min = select['min_values'] ?? 1;
  const max = select['max_values'] ?? 1;
  if (typeof min !== 'number' || min < 0 || min > 25)
    errors.add([...path, 'min_values'], 'NUMBER_TYPE_MAX', 'int value should be between 0 and 25.');
  if (typeof max !== 'number' || max < 1 || max > 25 || max > options.length || (typeof min === 'number' && min > max))
    errors.add([...path, 'max_values'], 'NUMBER_TYPE_MAX', 'int value should be between 1 and 25.');
}

/** Checks a create or edit body; `create` adds Discord's empty-message rule. */
export function validateMessage(
  body: Record<string, unknown>,
  fileCount: number,
  create: boolean,
): Record<string, unknown> | undefined {
  const errors = new FormErrors();
  maxLength(errors, ['content'], body['content'], 2000);
  if (body['embeds'] !== undefined && body['embeds'] !== null) validateEmbeds(errors, asArray(body['embeds']));
  if (body['components'] !== undefined && body['components'] !== null) {
    validateComponents(errors, asArray(body['components']));
  }
  const nonce = body['nonce'];
  if (nonce !== undefined && nonce !== null) {
    if (typeof nonce === 'string') maxLength(errors, ['nonce'], nonce, 25);
    else if (typeof nonce !== 'number' || !Number.isInteger(nonce)) {
      errors.add(['nonce'], 'BASE_TYPE_CHOICES', 'Must be a string or an integer.');
    }
  }
  if (!errors.empty) return errors.body();
  if (create) {
    const hasContent = typeof body['content'] === 'string' && body['content'].length > 0;
    const hasEmbeds = asArray(body['embeds']).length > 0;
    const hasComponents = asArray(body['components']).length > 0;
    const hasStickers = asArray(body['sticker_ids']).length > 0;
    if (!hasContent && !hasEmbeds && !hasComponents && !hasStickers && fileCount === 0 && body['poll'] === undefined) {
      return { message: 'Cannot send an empty message', code: 50006 };
    }
  }
  return undefined;
}

/** A length in [min, max], or the field's absence when not required: Discord's BASE_TYPE_BAD_LENGTH. */
function between(
  errors: FormErrors,
  path: (string | number)[],
  value: unknown,
  min: number,
  max: number,
  required = true,
): void {
  if (value === undefined && !required) return;
  if (typeof value !== 'string' || value.length < min || value.length > max)
    errors.add(path, 'BASE_TYPE_BAD_LENGTH', `Must be between ${min} and ${max} in length.`);
}

/**
 * A modal (callback type 9): title 1-45, custom id 1-100, 1-5 action rows each
 * holding one text input (type 4): custom id 1-100, style 1 or 2, label 1-45,
 * placeholder up to 100, value and min/max lengths up to 4000.
 */
export function validateModal(data: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  const errors = new FormErrors();
  between(errors, ['data', 'title'], data?.['title'], 1, 45);
  between(errors, ['data', 'custom_id'], data?.['custom_id'], 1, 100);
  const rows = asArray(data?.['components']);
  if (rows.length < 1 || rows.length > 5)
    errors.add(['data', 'components'], 'BASE_TYPE_BAD_LENGTH', 'Must be between 1 and 5 in length.');
  rows.forEach((raw, i) => {
    const row = asRecord(raw);
    const inputs = asArray(row['components']);
    if (row['type'] !== 1 || inputs.length !== 1)
      errors.add(['data', 'components', i], 'BASE_TYPE_BAD_LENGTH', 'An action row of a modal holds one text input.');
    inputs.forEach((rawInput, j) => {
      const input = asRecord(rawInput);
      const path = ['data', 'components', i, 'components', j];
      if (input['type'] !== 4) errors.add([...path, 'type'], 'COMPONENT_TYPE_INVALID', 'Only text inputs here.');
      between(errors, [...path, 'custom_id'], input['custom_id'], 1, 100);
      between(errors, [...path, 'label'], input['label'], 1, 45);
      if (input['style'] !== 1 && input['style'] !== 2)
        errors.add([...path, 'style'], 'BASE_TYPE_CHOICES', 'Value must be one of {1, 2}.');
      between(errors, [...path, 'placeholder'], input['placeholder'], 0, 100, false);
      between(errors, [...path, 'value'], input['value'], 0, 4000, false);
      for (const k of ['min_length', 'max_length']) {
        const n = input[k];
        if (n !== undefined && (typeof n !== 'number' || n < (k === 'min_length' ? 0 : 1) || n > 4000))
          errors.add([...path, k], 'NUMBER_TYPE_MAX', 'int value should be between 0 and 4000.');
      }
    });
  });
  return errors.empty ? undefined : errors.body();
}

/** Autocomplete results: at most 25 choices, names 1-100, string values up to 100. */
export function validateChoices(data: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  const errors = new FormErrors();
  const choices = asArray(data?.['choices']);
  if (choices.length > 25) errors.add(['data', 'choices'], 'BASE_TYPE_MAX_LENGTH', 'Must be 25 or fewer in length.');
  choices.forEach((raw, i) => {
    const choice = asRecord(raw);
    const name = choice['name'];
    if (typeof name !== 'string' || name.length < 1 || name.length > 100) {
      errors.add(['data', 'choices', i, 'name'], 'BASE_TYPE_BAD_LENGTH', 'Must be between 1 and 100 in length.');
    }
    if (typeof choice['value'] === 'string') maxLength(errors, ['data', 'choices', i, 'value'], choice['value'], 100);
  });
  return errors.empty ? undefined : errors.body();
}

export { asArray, asRecord };
