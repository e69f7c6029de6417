// The month counters of per-tenant limits (core/tenant-quota.ts), a part of the control store's port.

/** The port: the month counters (control store). `month` is the UTC start of the month in ms. */
export interface TenantSendCounter {
  /** Adds `n` to the count when the sum stays within `max` (null: no bound) and answers true; else adds nothing and answers false. */
  takeTenantSends(tenant: number, month: number, n: number, max: number | null): Promise<boolean>;
  /** The count so far (0 when none). */
  tenantSends(tenant: number, month: number): Promise<number>;
  /** Sets the count (a limit set mid-month starts from the month's sends so far). */
  setTenantSends(tenant: number, month: number, count: number): Promise<void>;
}
