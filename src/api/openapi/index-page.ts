// GET /docs: a page linking the four OpenAPI documents (one per surface) and the reference pages.
import nativeDoc from "../../../docs/api/native.openapi.json" with { type: "json" };

export const nativeOpenApi = nativeDoc;

export const DOCUMENTS = [
  ["sendgrid", "SendGrid v3"], ["mailgun", "Mailgun"], ["sparkpost", "SparkPost v1"], ["native", "native automations API"],
] as const;

export const docsIndex = () => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>postern API documents</title></head>
<body><h1>postern API documents</h1>
<p>OpenAPI 3.1, one per surface; each lists exactly the routes this server mounts.</p>
<ul>
${DOCUMENTS.map(([name, title]) => `<li><a href="/docs/${name}.json">${title}</a> (<code>/docs/${name}.json</code>)</li>`).join("\n")}
</ul>
</body></html>
`;
