// A request body as bytes plus its content type, so an outbox post can be built, logged and
// retried without holding a FormData object.
export interface InboundPost {
  body: Uint8Array;
  headers: Record<string, string>;
}

export type Field = [name: string, value: string] | [name: string, file: { filename: string; contentType: string; data: Uint8Array }];

export async function formPost(fields: Field[], multipart: boolean, headers: Record<string, string> = {}): Promise<InboundPost> {
  if (!multipart) {
    const params = new URLSearchParams();
    for (const [k, v] of fields) if (typeof v === "string") params.append(k, v);
    return { body: new TextEncoder().encode(params.toString()), headers: { ...headers, "content-type": "application/x-www-form-urlencoded" } };
  }
  const form = new FormData();
  for (const [k, v] of fields) {
    if (typeof v === "string") form.append(k, v);
    else form.append(k, new Blob([v.data], { type: v.contentType || "application/octet-stream" }), v.filename);
  }
  const res = new Response(form);
  // Read the boundary before the body: Bun forgets the header once the body is consumed.
  const type = res.headers.get("content-type")!;
  return { body: new Uint8Array(await res.arrayBuffer()), headers: { ...headers, "content-type": type } };
}

export const jsonPost = (value: unknown, headers: Record<string, string> = {}): InboundPost =>
  ({ body: new TextEncoder().encode(JSON.stringify(value)), headers: { ...headers, "content-type": "application/json" } });
