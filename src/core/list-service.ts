// Stored lists for the surfaces: Mailgun mailing lists (id = the list address, owned by the
// address's domain) and SparkPost recipient lists (owned by a domain key's domain, or the account
// of the tenant the key acts for). A domain key never sees another domain's lists, and no key
// another tenant's (docs/tenants.md); the list-unsubscribe link of a Mailgun list
// turns its member's `subscribed` off.
import type { Principal } from "./model.ts";
import { readTenant } from "./permissions.ts";
import { conflict, notFound } from "./errors.ts";
import type { ListKind, ListMember, ListRepo, NewList, StoredList } from "./list-model.ts";
import type { AuditWriter } from "./audit.ts";

export interface ListService {
  /** Lists of `kind` a principal may see: its domain's (and its tenant's account ones for recipient lists), or its tenant's for an account key. */
  list(p: Principal, kind: ListKind): Promise<StoredList[]>;
  /** A list the principal may see, or null. */
  find(p: Principal, kind: ListKind, id: string): Promise<StoredList | null>;
  /** An address list by its address (the address's domain owns it, so the address names one list). */
  findAddress(address: string): Promise<StoredList | null>;
  create(l: Omit<NewList, "createdAt" | "updatedAt">): Promise<StoredList>;
  update(l: StoredList, patch: { id?: string; name?: string; description?: string; extra?: Record<string, unknown> }): Promise<StoredList>;
  remove(l: StoredList): Promise<void>;
  putMembers(l: StoredList, members: ListMember[], upsert: boolean): Promise<number>;
  replaceMembers(l: StoredList, members: ListMember[]): Promise<void>;
  member(l: StoredList, address: string): Promise<ListMember | null>;
  members(l: StoredList, opts: { limit: number; after?: string; subscribed?: boolean }): Promise<ListMember[]>;
  removeMember(l: StoredList, address: string): Promise<boolean>;
  /** The list-unsubscribe link: the member of the Mailgun list at `address` stops receiving it. */
  unsubscribe(listAddress: string, member: string): Promise<boolean>;
}

/** Every member, in order, in pages (sends expand whole lists). */
export async function allMembers(svc: ListService, l: StoredList, subscribed?: boolean): Promise<ListMember[]> {
  const out: ListMember[] = [];
  for (;;) {
    const page = await svc.members(l, { limit: 1000, after: out.at(-1)?.address, subscribed });
    out.push(...page);
    if (page.length < 1000) return out;
  }
}

export function createListService(deps: { repo: ListRepo; now: () => number; audit?: AuditWriter }): ListService {
  const { repo, now } = deps;
  // Changes are recorded under the list's own tenant ("list.update", target the list id); a member's own unsubscribe link has no actor.
  const record = (action: string, l: StoredList) => deps.audit?.record(`list.${action}`, l.id, l.tenantId);
  const reload = async (l: StoredList) => (await repo.getList(l.kind, l.domainId, l.id, l.tenantId))!;
  const scopesOf = (p: Principal, kind: ListKind): (number | null)[] | undefined => {
    if (p.kind !== "domain") return undefined;
    const own = p.domain?.id ?? -1;
    return kind === "recipient-list" ? [own, null] : [own];
  };
  return {
    list: (p, kind) => repo.listLists(kind, scopesOf(p, kind), readTenant(p)),
    async find(p, kind, id) {
      const found = (await repo.listLists(kind, scopesOf(p, kind), readTenant(p))).filter((l) => l.id === id);
      // An account key's recipient lists come first when a domain holds one of the same id (the primary's first when reads cover every tenant).
      return found.filter((l) => l.domainId === null).sort((a, b) => a.tenantId - b.tenantId)[0] ?? found[0] ?? null;
    },
    async findAddress(address) {
      return (await repo.listLists("address-list")).find((l) => l.id === address.toLowerCase()) ?? null;
    },
    async create(l) {
      const at = now();
      const created = await repo.insertList({ ...l, createdAt: at, updatedAt: at });
      if (!created) throw conflict(`list ${l.id} already exists`);
      await record("create", created);
      return created;
    },
    async update(l, patch) {
      if (!(await repo.updateList(l.pk, patch, now()))) throw conflict(`list ${patch.id ?? l.id} already exists`);
      await record("update", l);
      return (await repo.getList(l.kind, l.domainId, patch.id ?? l.id, l.tenantId))!;
    },
    async remove(l) {
      if (await repo.deleteList(l.pk)) await record("delete", l);
    },
    async putMembers(l, members, upsert) {
      const n = await repo.putMembers(l.pk, members, upsert);
      if (n) await record("members", l);
      return n;
    },
    async replaceMembers(l, members) {
      await repo.replaceMembers(l.pk, members);
      await record("members", l);
    },
    member: (l, address) => repo.getMember(l.pk, address.toLowerCase()),
    members: (l, opts) => repo.listMembers(l.pk, opts),
    async removeMember(l, address) {
      const done = await repo.deleteMember(l.pk, address.toLowerCase());
      if (done) await record("members", l);
      return done;
    },
    async unsubscribe(listAddress, member) {
      const l = await this.findAddress(listAddress);
      const m = l ? await repo.getMember(l.pk, member.toLowerCase()) : null;
      if (!l || !m) return false;
      await repo.putMembers(l.pk, [{ ...m, subscribed: false }], true);
      await reload(l);
      return true;
    },
  };
}

export const listNotFound = () => notFound("Mailing list not found");
