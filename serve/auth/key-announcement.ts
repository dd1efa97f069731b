const RULE = '='.repeat(78);

/**
 * The one-time announcement of a key created on first start: a block framed by blank lines and rules, so
 * it stands out on a terminal among log lines. It goes to the terminal (stderr), never into the logs.
 */
export function keyAnnouncement(id: string, key: string): string {
  return [
    '',
    RULE,
    `  No API key was configured, so one was created (id ${id}).`,
    '  It is shown only this once; keep it:',
    '',
    `    API key: ${key}`,
    '',
    '  Use it as "Authorization: Bearer <key>"; manage keys with "npm run keys".',
    RULE,
    '',
  ].join('\n');
}
