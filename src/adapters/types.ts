/**
 * What main.ts needs from a chat platform adapter. Adapters turn platform
 * updates into dispatcher calls and rendered views into platform messages; the
 * `sender` is their half of alert delivery.
 */
import type { Sender } from '../alerts/delivery.ts';

export interface ChatAdapter {
  readonly platform: 'discord' | 'telegram';
  /** Posts alerts; paced to the platform's limits. */
  readonly sender: Sender;
  /** Connects and starts taking commands; resolves once ready. */
  start(): Promise<void>;
  /** Stops taking commands, lets in-flight ones finish, disconnects. */
  stop(): Promise<void>;
  /** Connected and taking commands (for /readyz). */
  isReady(): boolean;
  /**
   * Resolves with one line when this instance may no longer run the adapter (a Discord shard's
   * lease lost): the bot stops with that line and status 1, and its supervisor restarts it.
   */
  readonly lost?: Promise<string>;
  /** Which of the platform's single-holder roles this instance has (for /readyz and metrics). */
  roles?(): Record<string, unknown>;
}
