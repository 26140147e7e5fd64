/**
 * Requests the page sends on its own while someone types or hovers (live diagnostics over a comm, completions,
 * hover help). The kernel frames each busy/idle as the protocol asks, but the page's kernel status answers "is
 * my code running?", so their busy never shows: services leaves status messages with these parents untracked
 * (PageConfig `untracked_message_types`, set in services.ts), and kernel-session.ts ignores them too.
 */
export const BACKGROUND_REQUESTS: readonly string[] = [
  'comm_open',
  'comm_msg',
  'comm_close',
  'comm_info_request',
  'complete_request',
  'inspect_request',
  'is_complete_request',
  'history_request',
];
