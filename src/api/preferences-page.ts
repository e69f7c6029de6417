// The unsubscribe preferences page and its form (api/tracking.ts serves it): one checkbox per
// unsubscribe group (ticked = still receives it) and one to leave all mail.
import type { GroupChoice } from "../tracking/preferences.ts";

const escape = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

export function preferencesPage(groups: GroupChoice[]): string {
  const rows = groups.map((g) => `<p><label><input type="checkbox" name="group" value="${g.id}"${g.isSubscribed ? " checked" : ""}> ` +
    `<b>${escape(g.name)}</b>${g.description ? ` ${escape(g.description)}` : ""}</label></p>`).join("");
  return `<p>Choose the emails you want to receive.</p><form method="post">${rows}` +
    `<p><label><input type="checkbox" name="all" value="1"> Unsubscribe from all emails</label></p><button type="submit">Save</button></form>`;
}

/** The posted form: the ticked groups, and whether to leave all mail. */
export function readPreferencesForm(body: string): { keep: Set<number>; leaveAll: boolean } {
  const form = new URLSearchParams(body);
  const keep = new Set(form.getAll("group").filter((v) => /^\d{1,15}$/.test(v)).map(Number));
  return { keep, leaveAll: form.get("all") === "1" };
}
