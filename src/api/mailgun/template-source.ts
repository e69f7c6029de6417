// What a Mailgun send renders `template` with: the URL domain's stored template (or its
// tenant's account-wide one, or a file of the templates directory), its active version or `t:version`, in
// Mailgun's Handlebars. The key must be allowed to act on that domain before anything is read.
import type { DomainService } from "../../core/domains.ts";
import { sendScope, type TemplateService } from "../../core/template-service.ts";
import { requireDomainScope } from "../context.ts";
import type { MgTemplateRenderer } from "./mapper.ts";

export function mailgunTemplates(request: Request, domainName: string, deps: { templateService: TemplateService; domains: DomainService }): MgTemplateRenderer {
  return async (name, data, version) => {
    requireDomainScope(request, domainName);
    const domain = await deps.domains.require(domainName);
    const t = await deps.templateService.resolve(sendScope(domain), name.toLowerCase(), version?.toLowerCase())
      ?? (name !== name.toLowerCase() && !version ? await deps.templateService.resolve(sendScope(domain), name) : null);
    return t ? deps.templateService.render(t, data, "equal") : null;
  };
}
