// Every grant vocabulary a stored key may hold, each kept by the surface whose vendor wrote it:
// postern's own rights (core), SparkPost's grants and SendGrid's scopes. Handed to every core
// decision that reads grants (the permission guard, key delegation, grant checks).
import { ownRights, type GrantVocabulary } from "../core/grants.ts";
import { rightsOf } from "../core/permissions.ts";
import type { Principal } from "../core/model.ts";
import { sparkpostGrantRights } from "./sparkpost/grants.ts";
import { sendgridScopeRights } from "./sendgrid/scopes.ts";

export const grantRights: GrantVocabulary = (grant) => ownRights(grant) ?? sparkpostGrantRights(grant) ?? sendgridScopeRights(grant);

/** True when the key's grants, in whichever vocabulary, give the send right (SMTP submission with a key). */
export const holdsSendRight = (p: Pick<Principal, "grants">) => rightsOf(p, grantRights).has("mail.send");
