/**
 * A notice stored as what happened (store/outbox.ts NoticeEvent), said in the
 * destination's language at the moment it is sent, as alerts and digests are:
 * a chat that changed its language between the queueing and the send reads the new one.
 */
import type { TextView } from '../../domain/view.ts';
import type { NoticeEvent } from '../../store/outbox.ts';
import type { T } from './lang.ts';

/** `t` is required: a notice has no language of its own, only its reader's. */
export function noticeView(n: NoticeEvent, t: T): TextView {
  switch (n.what) {
    case 'pause-ended':
      return { kind: 'text', text: t('subscribe.pauseEnded') };
  }
}
