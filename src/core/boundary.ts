/**
 * The error boundary's mapping: any failure a command or a press can end in
 * becomes a short, honest answer in the caller's language, with the outcome
 * the metrics count, and the detail the user should not see goes to the log.
 * Apart from dispatch.ts because automatic cards (autocard.ts) answer through
 * the same mapping without running a command.
 */
import type { Logger } from 'pino';
import {
  ApiAbortedError,
  ApiBadRequestError,
  ApiNotFoundError,
  ApiSchemaError,
  ApiUnauthorizedError,
  ApiUnavailableError,
  ApiValidationError,
} from '../api/index.ts';
import type { T } from '../i18n/index.ts';
import type { View } from '../domain/view.ts';
import { PermissionError, UserError } from './errors.ts';

export type Outcome = 'ok' | 'user_error' | 'denied' | 'limited' | 'not_found' | 'unavailable' | 'failed';

/** An error's own words ("Example:", "Error:") in the language of its message. */
export function labelled(view: View, t: T): View {
  return view.kind === 'error' && !view.labels
    ? { ...view, labels: { example: t('errors.exampleLabel'), error: t('errors.errorLabel') } }
    : view;
}

/** Maps any failure to a short, honest answer in `t`'s language; logs what the user should not see. */
export function toErrorView(err: unknown, command: string, log: Logger, t: T): { view: View; outcome: Outcome } {
  const say = (message: string): View => ({ kind: 'error', message });
  if (err instanceof PermissionError)
    return { view: { kind: 'error', message: err.localized(t), denied: true }, outcome: 'denied' };
  if (err instanceof UserError) {
    return {
      view: { kind: 'error', message: err.localized(t), ...(err.example ? { example: err.example } : {}) },
      outcome: 'user_error',
    };
  }
  if (err instanceof ApiNotFoundError) return { view: say(t('errors.notFound')), outcome: 'not_found' };
  if (err instanceof ApiValidationError || err instanceof ApiBadRequestError) {
    log.warn({ command, err }, 'upstream refused parameters');
    // The upstream's own words stay as it wrote them (English): they name its parameters.
    return { view: say(t('errors.refused', { detail: err.message })), outcome: 'user_error' };
  }
  if (err instanceof ApiUnavailableError) {
    log.warn({ command, err }, 'upstream unavailable');
    return { view: say(t('errors.unavailable')), outcome: 'unavailable' };
  }
  if (err instanceof ApiUnauthorizedError) {
    log.error({ command, err }, 'upstream refused the API key');
    return { view: say(t('errors.unauthorized')), outcome: 'failed' };
  }
  if (err instanceof ApiSchemaError) {
    log.error({ command, err }, 'upstream answered in an unexpected shape');
    return { view: say(t('errors.schema')), outcome: 'failed' };
  }
  if (err instanceof ApiAbortedError || (err instanceof Error && err.name === 'AbortError')) {
    return { view: say(t('errors.aborted')), outcome: 'unavailable' };
  }
  log.error({ command, err }, 'command failed');
  return { view: say(t('errors.failed')), outcome: 'failed' };
}
