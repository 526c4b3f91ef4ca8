/**
 * A mistake the user can fix. Its message is shown as is, so it is short, says
 * what was wrong and, with `example`, shows a correct command to copy.
 */
export class UserError extends Error {
  override name = 'UserError';
  readonly example: string | undefined;
  constructor(message: string, example?: string) {
    super(message);
    this.example = example;
  }
}

/** The caller may not do this here (subscription changes by non-admins). */
export class PermissionError extends UserError {
  override name = 'PermissionError';
}
