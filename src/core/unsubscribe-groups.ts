// Unsubscribe groups: named kinds of mail (newsletters, offers...) a recipient can leave without
// leaving all mail (SendGrid's ASM groups). A group's entries are suppressions of type
// `group:<id>` in the zone of each domain they apply to, so an unsubscribe click writes its event
// and its entry in one transaction like any other. Groups are a tenant's (docs/tenants.md): a
// domain key sees its own groups and its tenant's account ones; an account key sees every group of
// the tenant it acts for, whose account-wide entries apply to every domain of that tenant.
import type { Principal } from "./model.ts";
import type { GroupSuppressionType, Store, Suppression, UnsubscribeGroup } from "./store-port.ts";
import { AppError, invalid, notFound } from "./errors.ts";
import { checkSyntax } from "./address/address.ts";
import type { AuditWriter } from "./audit.ts";

export const MAX_GROUP_NAME = 30;
export const MAX_GROUP_DESCRIPTION = 100;

export const groupListType = (id: number): GroupSuppressionType => `group:${id}`;
/** The group id of a `group:<id>` suppression type, else null. */
export function groupOfType(type: string): number | null {
  const m = /^group:(\d+)$/.exec(type);
  return m ? Number(m[1]) : null;
}

export interface GroupInput { name?: string; description?: string; isDefault?: boolean }
export interface GroupEntry { groupId: number; address: string; createdAt: number }

const scopeOf = (p: Principal) => (p.kind === "domain" && p.domain ? p.domain.id : null);
const tenantOf = (p: Principal) => p.tenant ?? 0;
const isVisible = (p: Principal, g: UnsubscribeGroup) =>
  g.tenantId === tenantOf(p) && (scopeOf(p) === null || g.domainId === null || g.domainId === scopeOf(p));

/** The domains (name, zone) a group's entries live in for this principal: never another tenant's. */
async function domainsFor(store: Store, p: Principal, g: UnsubscribeGroup) {
  const scope = g.domainId ?? scopeOf(p);
  return (await store.control.listDomains(g.tenantId)).filter((d) => scope === null || d.id === scope);
}

/** Name (required on create, ≤ 30, unique among the groups the key sees) and description (≤ 100). */
function checkInput(input: GroupInput, others: UnsubscribeGroup[]) {
  if (input.name !== undefined) {
    const name = input.name.trim();
    if (!name || name.length > MAX_GROUP_NAME) throw invalid(`name is required, at most ${MAX_GROUP_NAME} characters`, "name");
    if (others.some((g) => g.name.toLowerCase() === name.toLowerCase())) throw invalid("another group with this name already exists", "name");
  }
  if (input.description !== undefined && input.description.length > MAX_GROUP_DESCRIPTION) {
    throw invalid(`description is at most ${MAX_GROUP_DESCRIPTION} characters`, "description");
  }
}

/** A group's entries in `domains` (one per address, the earliest), optionally only `emails`. */
async function readEntries(store: Store, domains: { name: string; zone: string }[], id: number, emails?: string[]): Promise<GroupEntry[]> {
  const byAddress = new Map<string, GroupEntry>();
  for (const d of domains) {
    const zone = store.zone(d.zone);
    const rows = emails ? (await zone.findSuppressed(d.name, emails)).filter((s) => s.type === groupListType(id))
      : await zone.listSuppressions({ domain: d.name, type: groupListType(id), limit: 1_000_000 });
    for (const s of rows) {
      const seen = byAddress.get(s.address);
      if (!seen || s.createdAt < seen.createdAt) byAddress.set(s.address, { groupId: id, address: s.address, createdAt: s.createdAt });
    }
  }
  return [...byAddress.values()].sort((a, b) => a.address.localeCompare(b.address));
}

// Every change is audited under the group's own tenant (its column), as a domain's data is under the
// domain's tenant (tenants.ts domainTenant), not whichever tenant the caller's scene names.
export function createUnsubscribeGroupService(deps: { store: Store; now: () => number; audit?: AuditWriter }) {
  const { store } = deps;
  const visible = async (p: Principal) => (await store.control.listGroups(tenantOf(p))).filter((g) => isVisible(p, g));
  async function get(p: Principal, id: number): Promise<UnsubscribeGroup> {
    const g = Number.isSafeInteger(id) ? await store.control.getGroup(id) : null;
    if (!g || !isVisible(p, g)) throw notFound(`unsubscribe group ${id} not found`);
    return g;
  }
  /** One default group per scope: a new default takes the flag from the others it sees. */
  async function clearDefault(p: Principal, except: number) {
    for (const g of await visible(p)) if (g.isDefault && g.id !== except) await store.control.updateGroup(g.id, { isDefault: false });
  }

  return {
    list: visible,
    get,
    async create(p: Principal, input: GroupInput): Promise<UnsubscribeGroup> {
      if (input.name === undefined) throw invalid("name is required", "name");
      checkInput(input, await visible(p));
      const g = await store.control.insertGroup({ domainId: scopeOf(p), tenantId: tenantOf(p), name: input.name.trim(), description: input.description ?? "",
        isDefault: Boolean(input.isDefault), createdAt: deps.now() });
      if (g.isDefault) await clearDefault(p, g.id);
      await deps.audit?.record("group.create", String(g.id), g.tenantId);
      return g;
    },
    async update(p: Principal, id: number, input: GroupInput): Promise<UnsubscribeGroup> {
      await get(p, id);
      checkInput(input, (await visible(p)).filter((g) => g.id !== id));
      const g = await store.control.updateGroup(id, { ...input, ...(input.name !== undefined ? { name: input.name.trim() } : {}) });
      if (!g) throw notFound(`unsubscribe group ${id} not found`);
      if (input.isDefault) await clearDefault(p, id);
      await deps.audit?.record("group.update", String(id), g.tenantId);
      return g;
    },
    /** Deletes the group and its entries. */
    async remove(p: Principal, id: number): Promise<void> {
      const g = await get(p, id);
      for (const d of await domainsFor(store, p, g)) await store.zone(d.zone).deleteAllSuppressions(d.name, groupListType(id));
      await store.control.deleteGroup(id);
      await deps.audit?.record("group.delete", String(id), g.tenantId);
    },
    /** Adds addresses to a group (every address checked first); returns them as given. */
    async addEntries(p: Principal, id: number, emails: string[]): Promise<string[]> {
      const g = await get(p, id);
      const issues = emails.flatMap((e) => checkSyntax(e, { field: "recipient_emails" }).map((x) => ({ ...x, message: `"${e}" ${x.message}` })));
      if (issues.length) throw new AppError("invalid", issues[0]!.message, { issues });
      const at = deps.now();
      for (const d of await domainsFor(store, p, g)) {
        await store.zone(d.zone).addSuppressions(emails.map((e): Suppression => ({ domain: d.name, type: groupListType(id), address: e.trim().toLowerCase(),
          reason: "unsubscribe group (API)", code: "", scope: null, createdAt: at })));
      }
      for (const e of emails) await deps.audit?.record("suppression.add", `group:${id}/${e.trim().toLowerCase()}`, g.tenantId);
      return emails;
    },
    /** A group's entries (one per address, the earliest), optionally only `emails`. */
    async entries(p: Principal, id: number, emails?: string[]): Promise<GroupEntry[]> {
      const g = await get(p, id);
      return readEntries(store, await domainsFor(store, p, g), id, emails);
    },
    async removeEntry(p: Principal, id: number, email: string): Promise<number> {
      const g = await get(p, id);
      let n = 0;
      for (const d of await domainsFor(store, p, g)) n += await store.zone(d.zone).deleteSuppression(d.name, groupListType(id), email);
      if (n) await deps.audit?.record("suppression.delete", `group:${id}/${email.trim().toLowerCase()}`, g.tenantId);
      return n;
    },
  };
}

export type UnsubscribeGroupService = ReturnType<typeof createUnsubscribeGroupService>;
