// The unsubscribe preferences behind SendGrid's <%asm_preferences_raw_url%>: the unsubscribe groups
// a message offers, each with the recipient's current choice; saving leaves the groups unticked
// (an unsubscribe event each, recorded like a click on the group link), rejoins the ticked ones,
// and can leave all mail.
import type { Store } from "../core/store-port.ts";
import { groupListType } from "../core/unsubscribe-groups.ts";
import type { TrackingPayload } from "./token.ts";
import type { Hit, InteractionRecorder } from "./interactions.ts";
import { PREFERENCES_SCOPE } from "./rewrite.ts";

export interface GroupChoice { id: number; name: string; description: string; isSubscribed: boolean }

export function createPreferences(deps: { store: Store; interactions: InteractionRecorder }) {
  /** The recipient and the groups its token offers, or null when the token names nothing we sent. */
  async function load(payload: TrackingPayload) {
    if (payload.kind !== "unsubscribe" || !payload.url?.startsWith(PREFERENCES_SCOPE)) return null;
    const domain = await deps.store.control.getDomain(payload.domain);
    if (!domain) return null;
    const zone = deps.store.zone(domain.zone);
    const rcpt = await zone.getRecipient(payload.recipientId);
    if (!rcpt || rcpt.messageId !== payload.messageId) return null;
    const ids = [...new Set(payload.url.slice(PREFERENCES_SCOPE.length).split(",").filter((x) => /^\d+$/.test(x)).map(Number))];
    const listed = new Set((await zone.findSuppressed(domain.name, [rcpt.email])).map((s) => s.type as string));
    const groups: GroupChoice[] = [];
    for (const id of ids) {
      const g = await deps.store.control.getGroup(id);
      // Only the sending domain's tenant's groups: another tenant's group is not named on this page.
      if (g && g.tenantId === (domain.tenantId ?? 0)) groups.push({ id, name: g.name, description: g.description, isSubscribed: !listed.has(groupListType(id)) });
    }
    return { domain, zone, email: rcpt.email, groups };
  }

  return {
    async read(payload: TrackingPayload): Promise<GroupChoice[] | null> {
      return (await load(payload))?.groups ?? null;
    },
    /** Applies the form: `keep` are the ticked groups; `leaveAll` unsubscribes from all mail. */
    async save(payload: TrackingPayload, hit: Hit, keep: Set<number>, leaveAll: boolean): Promise<boolean> {
      const found = await load(payload);
      if (!found) return false;
      for (const g of found.groups) {
        if (g.isSubscribed && !keep.has(g.id)) await deps.interactions.record(payload, hit, { group: g.id });
        if (!g.isSubscribed && keep.has(g.id)) await found.zone.deleteSuppression(found.domain.name, groupListType(g.id), found.email);
      }
      if (leaveAll) await deps.interactions.record(payload, hit, { group: "all" });
      return true;
    },
  };
}

export type Preferences = ReturnType<typeof createPreferences>;
