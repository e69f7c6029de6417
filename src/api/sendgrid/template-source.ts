// What mail/send renders a template_id with: the sending domain's stored template (or its
// tenant's account-wide one, or a file of the templates directory), active version, in SendGrid's Handlebars
// dialect. Legacy templates are not Handlebars: their <%subject%> and <%body%> tags are filled later.
// {{{unsubscribe}}} becomes the recipient's unsubscribe link, {{{unsubscribe_preferences}}} their
// preferences page (the unsubscribe groups of asm, and a way out of all mail).
import type { TemplateParts } from "../../core/templates.ts";
import { sendScope, type TemplateService } from "../../core/template-service.ts";
import { PREFERENCES_PLACEHOLDER, UNSUBSCRIBE_PLACEHOLDER } from "../../tracking/rewrite.ts";
import { htmlToText } from "../../core/html-text.ts";

export interface TemplateRenderer {
  render(id: string, data: Record<string, unknown>): Promise<TemplateParts | null>;
}

export function sendgridTemplates(service: TemplateService, domain: { id: number; tenantId?: number }): TemplateRenderer {
  return {
    async render(id, data) {
      const t = await service.resolve(sendScope(domain), id);
      if (!t) return null;
      if (t.generation === "legacy") return t.parts;
      const out = service.render(t, { ...data, unsubscribe: UNSUBSCRIBE_PLACEHOLDER, unsubscribe_preferences: PREFERENCES_PLACEHOLDER }, "comparisons");
      // generate_plain_content: the text part is made from the rendered HTML.
      if (t.extra.generate_plain_content === true && out.html !== undefined) out.text = htmlToText(out.html);
      return out;
    },
  };
}
