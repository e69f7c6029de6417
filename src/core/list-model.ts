// Stored lists: Mailgun mailing lists (id = the list address) and SparkPost recipient lists,
// owned by one domain (domainId) or by the account (null), with members in insertion order.

/**
 * An address list is a mailing list whose id is its own address (mail to it goes to every member),
 * owned by one domain (Mailgun's lists); a recipient list is a named set of recipients a send
 * names, owned by a domain or the account (SparkPost's).
 */
export type ListKind = "address-list" | "recipient-list";

export interface StoredList {
  pk: number;
  kind: ListKind;
  id: string;
  domainId: number | null;
  /** The owning tenant (a domain's list: the domain's tenant). */
  tenantId: number;
  name: string;
  description: string;
  /** Vendor fields (Mailgun access_level, reply_preference; SparkPost attributes). */
  extra: Record<string, unknown>;
  createdAt: number;
  updatedAt: number;
  memberCount: number;
}

export interface ListMember {
  address: string;
  name: string;
  vars: Record<string, unknown>;
  subscribed: boolean;
  /** Vendor fields (SparkPost metadata, tags, header_to, return_path). */
  extra: Record<string, unknown>;
}

export type NewList = Omit<StoredList, "pk" | "memberCount">;

export interface ListRepo {
  /** Null when the id is taken for that kind and scope. */
  insertList(l: NewList): Promise<StoredList | null>;
  /** A domain's list, or (domainId null) one of `tenant`'s account-wide ones (undefined: the primary's). */
  getList(kind: ListKind, domainId: number | null, id: string, tenant?: number): Promise<StoredList | null>;
  /** Lists of `kind` in scope (`domainIds` undefined = every scope; null = account-wide), of `tenant` only when given. */
  listLists(kind: ListKind, domainIds?: (number | null)[], tenant?: number): Promise<StoredList[]>;
  updateList(pk: number, patch: { id?: string; name?: string; description?: string; extra?: Record<string, unknown> }, now: number): Promise<boolean>;
  deleteList(pk: number): Promise<boolean>;
  /** Adds or (when `upsert`) replaces members; returns how many rows were written. */
  putMembers(pk: number, members: ListMember[], upsert: boolean): Promise<number>;
  replaceMembers(pk: number, members: ListMember[]): Promise<void>;
  getMember(pk: number, address: string): Promise<ListMember | null>;
  /** Members in insertion order after `after` (an address), at most `limit`. */
  listMembers(pk: number, opts: { limit: number; after?: string; subscribed?: boolean }): Promise<ListMember[]>;
  deleteMember(pk: number, address: string): Promise<boolean>;
}
