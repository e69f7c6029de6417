// URLs customers give may carry credentials (https://user:password@host/...): never log them.

/** `url` with any user and password replaced by "***"; unparsable text is cut at its host part. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (!u.username && !u.password) return url;
    u.username = "***";
    u.password = "";
    return u.toString();
  } catch {
    return url.replace(/\/\/[^/@]*@/, "//***@");
  }
}
