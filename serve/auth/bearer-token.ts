/** The key of an `Authorization: Bearer <key>` header (scheme case-insensitive), or null when there is none. */
export function bearerToken(header: string | undefined): string | null {
  if (header === undefined) return null;
  const match = /^Bearer[ ]+(\S+)[ ]*$/i.exec(header);
  return match ? match[1]! : null;
}
