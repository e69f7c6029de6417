// Every grant vocabulary a stored key may hold, each kept by the surface whose vendor wrote it:
// postern's own rights (core), SparkPost's grants and SendGrid's scopes. Handed to every core
// decision that reads grants (the permission guard, key delegation, grant checks).
import { ownRights, type GrantVocabulary } from "../core/grants.ts";
import { sparkpostGrantRights } from "./sparkpost/grants.ts";
import { sendgridScopeRights } from "./sendgrid/scopes.ts";

export const grantRights: GrantVocabulary = (grant) => ownRights(grant) ?? sparkpostGrantRights(grant) ?? sendgridScopeRights(grant);
