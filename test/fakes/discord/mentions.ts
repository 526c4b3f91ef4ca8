/**
 * Who a message notifies, as Discord decides it: only mentions in `content`
 * count (a mention inside an embed notifies nobody), filtered by
 * `allowed_mentions` (absent: everything parsed), and a role that is not
 * mentionable only by a sender with Mention Everyone.
 */
import { asArray, asRecord } from './validate.ts';

export interface FakeRole {
  id: string;
  name: string;
  /** Server Settings > Roles > "Allow anyone to @mention this role". */
  mentionable: boolean;
}

export interface Notified {
  roles: string[];
  users: string[];
  /** @everyone or @here went out. */
  everyone: boolean;
}

export const NOBODY: Notified = { roles: [], users: [], everyone: false };

/** A 50035 body when allowed_mentions is malformed (a type both parsed and listed), else undefined. */
export function allowedMentionsError(body: Record<string, unknown>): Record<string, unknown> | undefined {
  const allowed = body['allowed_mentions'];
  if (allowed === undefined || allowed === null) return undefined;
  const a = asRecord(allowed);
  const parse = asArray(a['parse']).map(String);
  for (const kind of ['roles', 'users'] as const) {
    if (parse.includes(kind) && a[kind] !== undefined)
      return {
        code: 50035,
        message: 'Invalid Form Body',
        errors: {
          allowed_mentions: {
            _errors: [{ code: 'MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE', message: `parse:["${kind}"] and ${kind}` }],
          },
        },
      };
    if (asArray(a[kind]).length > 100)
      return { code: 50035, message: 'Invalid Form Body', errors: { allowed_mentions: { [kind]: {} } } };
  }
  return undefined;
}

export function notified(
  body: Record<string, unknown>,
  roles: readonly FakeRole[],
  canMentionEveryone: boolean,
): Notified {
  const content = typeof body['content'] === 'string' ? body['content'] : '';
  const raw = body['allowed_mentions'];
  const a = raw === undefined || raw === null ? undefined : asRecord(raw);
  const parse = a ? asArray(a['parse']).map(String) : ['roles', 'users', 'everyone'];
  const listed = (kind: 'roles' | 'users') => new Set(a ? asArray(a[kind]).map(String) : []);
  const allowRole = (id: string) => parse.includes('roles') || listed('roles').has(id);
  const allowUser = (id: string) => parse.includes('users') || listed('users').has(id);
  const mentionedRoles = [...content.matchAll(/<@&(\d+)>/g)].map((m) => m[1]!);
  const mentionedUsers = [...content.matchAll(/<@!?(\d+)>/g)].map((m) => m[1]!);
  const known = new Map(roles.map((r) => [r.id, r]));
  return {
    roles: [...new Set(mentionedRoles)].filter((id) => {
      const role = known.get(id);
      return role !== undefined && allowRole(id) && (role.mentionable || canMentionEveryone);
    }),
    users: [...new Set(mentionedUsers)].filter(allowUser),
    everyone: /@(everyone|here)\b/.test(content) && parse.includes('everyone') && canMentionEveryone,
  };
}
