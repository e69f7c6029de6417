// Runs checks of the registry over their subjects: the machine, each egress address, each domain.
// A look-up that throws despite its contract becomes an `unknown` verdict naming the error.
import { CHECKS } from "./registry.ts";
import type { Check, CheckResult, DoctorContext, DomainSubject, Subject, Verdict } from "./types.ts";

export interface RunScope {
  domains: DomainSubject[];
  /** Only these check ids (default: all). */
  ids?: readonly string[];
}

async function runOne(check: Check<unknown>, ctx: DoctorContext, subject: Subject): Promise<CheckResult[]> {
  let verdicts: Verdict | (Verdict & { subject: string })[];
  try {
    verdicts = check.judge(await check.look(ctx, subject as never), subject as never);
  } catch (e) {
    verdicts = { severity: "unknown", summary: `the check failed: ${(e as Error).message}`, fix: "retry; if it persists, report it with the server log", data: {} };
  }
  const list = Array.isArray(verdicts) ? verdicts : [{ ...verdicts, subject: subject.name }];
  return list.map((v) => ({ id: check.id, subject: v.subject, severity: v.severity, summary: v.summary, fix: v.fix, data: v.data }));
}

export async function runChecks(ctx: DoctorContext, scope: RunScope, checks: readonly Check<unknown>[] = CHECKS): Promise<CheckResult[]> {
  const machine: Subject[] = [{ kind: "machine", name: ctx.mtaHostname }];
  const egress = await ctx.egress();
  const subjects = (c: Check<unknown>): Subject[] => (c.over === "machine" ? machine : c.over === "egress" ? egress : scope.domains);
  const chosen = checks.filter((c) => !scope.ids || scope.ids.includes(c.id));
  const runs = await Promise.all(chosen.flatMap((c) => subjects(c).map((s) => runOne(c, ctx, s))));
  const none = (c: Check<unknown>): CheckResult[] => (c.absent && subjects(c).length === 0
    ? [{ id: c.id, subject: ctx.mtaHostname, severity: "unknown", summary: c.absent, data: {},
      fix: "set [doctor] public_addresses to this server's public addresses, or give mta.hostname an A/AAAA record" }] : []);
  runs.push(...chosen.map(none));
  // A check that names a shared subject from several domains (its own verdict subjects) keeps it once.
  const seen = new Set<string>();
  return runs.flat().filter((r) => {
    const key = `${r.id}\n${r.subject}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
