// POST /v3/mail/send as a list of steps: key kind → body → shape (400, every problem) → sender
// identity (core checkSenderIdentity; errors.ts words its refusal as 403) → render per personalization (400) → size (413) → sandbox (200, nothing stored)
// or the send service (202 + X-Message-Id, committed before the answer).
import type { Principal } from "../../core/model.ts";
import { AppError, invalidMany } from "../../core/errors.ts";
import { checkSenderIdentity, type SendService } from "../../core/send.ts";
import type { TemplateService } from "../../core/template-service.ts";
import { sendgridTemplates } from "./template-source.ts";
import { newId } from "../../core/ids.ts";
import { readJsonBody, maxBodyBytes } from "./body.ts";
import { checkMergedArgs, measureRequest, toSendRequest } from "./mapper.ts";
import { MSG } from "./model.ts";
import { readMailSend } from "./request.ts";
import { requireDomainKey } from "./policy.ts";

export interface MailSendDeps {
  sender: SendService;
  templates: TemplateService;
  maxMessageBytes: number;
  now: () => number;
}

export function createMailSend(deps: MailSendDeps) {
  return async function mailSend(principal: Principal, request: Request): Promise<Response> {
    const domain = requireDomainKey(principal);
    const body = await readJsonBody(request, maxBodyBytes(deps.maxMessageBytes));
    const { mail, issues } = readMailSend(body, deps.now());
    if (issues.length) throw invalidMany(issues);
    checkSenderIdentity(domain, mail.from.email);
    const { req, issues: renderIssues } = await toSendRequest(mail, domain.name, sendgridTemplates(deps.templates, domain));
    renderIssues.push(...checkMergedArgs(req));
    if (renderIssues.length) throw invalidMany(renderIssues);
    if (measureRequest(req) > deps.maxMessageBytes) throw new AppError("too_large", MSG.tooLarge);
    // Sandbox: fully validated, then answered as SendGrid does (200), with nothing stored or queued.
    if (mail.mailSettings.isSandbox) return new Response(null, { status: 200, headers: { "X-Message-Id": newId(deps.now()) } });
    const result = await deps.sender.send(principal, req);
    return new Response(null, { status: 202, headers: { "X-Message-Id": result.id } });
  };
}
