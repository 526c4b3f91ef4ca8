// Interaction callback and interaction-webhook routes: token-authenticated, no bot header.
import { performance } from 'node:perf_hooks';
import { APPLICATION_COMMAND, AUTOCOMPLETE, MESSAGE_COMPONENT } from './interactions.ts';
import type { InteractionRecord } from './interactions.ts';
import { error, unknownMessage } from './route-types.ts';
import type { Ctx, Handler, Reply } from './route-types.ts';
import type { FakeState } from './state.ts';
import type { FakeMessage } from './types.ts';
import { asRecord, FormErrors, validateChoices, validateMessage, validateModal } from './validate.ts';

const LOADING = 128;
const EPHEMERAL = 64;

/** Which callback types Discord accepts for which interaction type. */
const ALLOWED: Record<number, number[]> = {
  4: [APPLICATION_COMMAND, MESSAGE_COMPONENT, 5],
  5: [APPLICATION_COMMAND, MESSAGE_COMPONENT, 5],
  6: [MESSAGE_COMPONENT, 5],
  7: [MESSAGE_COMPONENT, 5],
  8: [AUTOCOMPLETE],
  9: [APPLICATION_COMMAND, MESSAGE_COMPONENT],
};

function invalidType(): Reply {
  const errors = new FormErrors();
  errors.add(['type'], 'INTERACTION_RESPONSE_TYPE_INVALID', 'Invalid interaction response type');
  return { status: 400, json: errors.body() };
}

function messageType(record: InteractionRecord): number {
  return record.type === APPLICATION_COMMAND ? 20 : 0;
}

function createReply(
  ctx: Ctx,
  record: InteractionRecord,
  data: Record<string, unknown>,
  source: FakeMessage['source'],
  flags: number,
): FakeMessage {
  const { state } = ctx;
  const message = state.messages.create({
    channelId: record.channelId,
    body: data,
    files: ctx.files,
    source,
    type: messageType(record),
    flags,
    webhookId: state.applicationId,
    applicationId: state.applicationId,
    interactionMetadata: record.metadata(),
    origin: state.origin,
    ...(record.guildId === undefined ? {} : { guildId: record.guildId }),
  });
  return message;
}

export const interactionCallback: Handler = (ctx) => {
  const { state, params, body } = ctx;
  const record = state.interactions.get(params['interactionId'] ?? '');
  if (!record || record.token !== params['token']) return error(404, 10062, 'Unknown interaction');
  if (record.acked) return error(400, 40060, 'Interaction has already been acknowledged.');
  if (ctx.now - record.createdAt > state.interactionAckTimeoutMs) return error(404, 10062, 'Unknown interaction');
  const type = body['type'];
  if (typeof type !== 'number' || !ALLOWED[type]?.includes(record.type)) return invalidType();
  const data = body['data'] === undefined ? undefined : asRecord(body['data']);
  const invalid =
    type === 4 || type === 7
      ? validateMessage(data ?? {}, ctx.files.length, type === 4)
      : type === 8
        ? validateChoices(data)
        : type === 9
          ? validateModal(data)
          : undefined;
  if (invalid) return { status: 400, json: invalid };

  let message: FakeMessage | undefined;
  if (type === 4 || type === 5) {
    // Where a server keeps external apps private, Discord turns a user-installed app's reply ephemeral.
    const forced = record.forceEphemeral ? EPHEMERAL : 0;
    const ephemeral = (typeof data?.['flags'] === 'number' ? data['flags'] & EPHEMERAL : 0) | forced;
    const flags = type === 5 ? LOADING | ephemeral : (typeof data?.['flags'] === 'number' ? data['flags'] : 0) | forced;
    message = createReply(ctx, record, type === 4 ? (data ?? {}) : {}, 'interaction', flags);
    record.originalId = message.id;
    record.originalTouched = type === 4;
  } else if (type === 9) {
    // Shown to the user who pressed; what they submit comes back as a MODAL_SUBMIT interaction.
    record.modal = data;
  } else if (type === 6 || type === 7) {
    record.originalId = record.componentMessageId;
    message = record.originalId === undefined ? undefined : state.messages.byId.get(record.originalId);
    if (type === 7 && message) {
      state.messages.edit(message, data ?? {}, ctx.files, state.origin);
      record.originalTouched = true;
    }
  }
  record.acked = true;
  record.callbacks.push({ type, data, atMs: performance.now() - record.dispatchedAt });
  record.changed();

  if (ctx.query.get('with_response') !== 'true') return { status: 204 };
  const response: Record<string, unknown> = {
    interaction: {
      id: record.id,
      type: record.type,
      response_message_id: message?.id ?? null,
      response_message_loading: type === 5,
      response_message_ephemeral: message ? (message.flags & EPHEMERAL) !== 0 : false,
    },
  };
  if (type !== 6) {
    const resource: Record<string, unknown> = { type };
    if (message && type !== 8 && type !== 9) resource['message'] = state.messages.toApi(message, state.botUser());
    response['resource'] = resource;
  }
  return { status: 200, json: response };
};

function webhookRecord(state: FakeState, ctx: Ctx): InteractionRecord | Reply {
  const record = state.interactionsByToken.get(ctx.params['token'] ?? '');
  if (
    !record ||
    ctx.params['applicationId'] !== state.applicationId ||
    ctx.now - record.createdAt > state.interactionTokenTtlMs ||
    !record.acked
  ) {
    return error(404, 10015, 'Unknown Webhook');
  }
  return record;
}

/** POST /webhooks/:appId/:token: a follow-up message. */
export const webhookExecute: Handler = (ctx) => {
  const { state } = ctx;
  const record = webhookRecord(state, ctx);
  if ('status' in record) return record;
  const invalid = validateMessage(ctx.body, ctx.files.length, true);
  if (invalid) return { status: 400, json: invalid };
  // As Discord does: the first follow-up after a deferred reply (type 5) still
  // "thinking" resolves that reply, with the deferral's visibility whatever its
  // own flags say. Once that reply is deleted, a follow-up is a message of its own.
  const original = record.originalId === undefined ? undefined : state.messages.byId.get(record.originalId);
  if (original && !original.deleted && (original.flags & LOADING) !== 0) {
    const { flags: _ignored, ...body } = ctx.body;
    state.messages.edit(original, body, ctx.files, state.origin);
    record.originalTouched = true;
    record.changed();
    if (ctx.query.get('wait') === 'false') return { status: 204 };
    return { status: 200, json: state.messages.toApi(original, state.botUser()) };
  }
  const flags = typeof ctx.body['flags'] === 'number' ? ctx.body['flags'] : 0;
  const message = createReply(ctx, record, ctx.body, 'followup', flags);
  record.followupIds.push(message.id);
  record.changed();
  if (ctx.query.get('wait') === 'false') return { status: 204 };
  return { status: 200, json: state.messages.toApi(message, state.botUser()) };
};

/** GET/PATCH/DELETE /webhooks/:appId/:token/messages/:messageId, where the id may be @original. */
export const webhookMessage: Handler = (ctx) => {
  const { state } = ctx;
  const record = webhookRecord(state, ctx);
  if ('status' in record) return record;
  const wanted = ctx.params['messageId'];
  const isOriginal = wanted === '@original' || wanted === record.originalId;
  const id = wanted === '@original' ? record.originalId : wanted;
  const owned =
    id !== undefined &&
    (id === record.originalId || id === record.componentMessageId || record.followupIds.includes(id));
  const message = owned ? state.messages.byId.get(id) : undefined;
  if (!message || message.deleted) return unknownMessage();
  if (ctx.method === 'DELETE') {
    message.deleted = true;
    record.changed();
    return { status: 204 };
  }
  if (ctx.method === 'PATCH') {
    const invalid = validateMessage(ctx.body, ctx.files.length, false);
    if (invalid) return { status: 400, json: invalid };
    state.messages.edit(message, ctx.body, ctx.files, state.origin);
    if (isOriginal) record.originalTouched = true;
    record.changed();
  }
  return { status: 200, json: state.messages.toApi(message, state.botUser()) };
};
