import { SandboxFailure, ToolRefusal } from '@gitbench/core';

/** How a session's request fails: the session ended, or the runner refused the file the caller named. */

export class SessionEndedError extends SandboxFailure {
  override name = 'SessionEndedError';
}

/** A file read refused for its size; the session goes on (the caller's mistake, not the sandbox's). */
export class FileTooLargeError extends ToolRefusal {
  override name = 'FileTooLargeError';
}

/**
 * A file read or write the runner refused (it acts as the sandbox's uid: a path the model made a
 * directory, a FIFO or a link to a file it may not write). The model chose the path, so the session
 * goes on and the tool call tells it why; it is never the sandbox failing.
 */
export class FileRefusedError extends ToolRefusal {
  override name = 'FileRefusedError';
}
