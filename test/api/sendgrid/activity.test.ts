// SendGrid's Email Activity API through the official @sendgrid/client: a msg_id filter takes the
// send's X-Message-Id (every recipient of it) or one event's sg_message_id (that recipient).
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { startHarness, type SendgridHarness } from "./setup.ts";

setDefaultTimeout(60_000);
let h: SendgridHarness;
let xMessageId = "";
beforeAll(async () => {
  h = await startHarness();
  const [res] = await h.mail.send({ from: "alice@example.com", subject: "activity", text: "t",
    personalizations: [{ to: "act-one@dest.test" }, { to: "act-two@dest.test" }] });
  xMessageId = res.headers["x-message-id"] as string;
});
afterAll(async () => { await h.close(); });

type Listed = { messages: { msg_id: string; to_email: string; subject: string; status: string }[] };
const list = async (query: string) => (await h.client.request({ method: "GET", url: "/v3/messages", qs: { limit: 10, query } }))[1] as Listed;

describe("Email Activity: GET /v3/messages and /v3/messages/{msg_id}", () => {
  test("msg_id = the X-Message-Id: every recipient of the send, each msg_id starting with it", async () => {
    const { messages } = await list(`msg_id="${xMessageId}"`);
    expect(messages.map((m) => m.to_email).sort()).toEqual(["act-one@dest.test", "act-two@dest.test"]);
    for (const m of messages) expect(m.msg_id.startsWith(`${xMessageId}.filter`)).toBe(true);
    expect(messages[0]!.subject).toBe("activity");
  });

  test("msg_id = one sg_message_id: that recipient only; other clauses narrow", async () => {
    const all = (await list(`msg_id="${xMessageId}"`)).messages;
    const two = all.find((m) => m.to_email === "act-two@dest.test")!;
    expect((await list(`msg_id="${two.msg_id}"`)).messages.map((m) => m.to_email)).toEqual(["act-two@dest.test"]);
    expect((await list(`msg_id="${xMessageId}" AND to_email="act-one@dest.test"`)).messages.map((m) => m.to_email)).toEqual(["act-one@dest.test"]);
  });

  test("one message by either id, with its events; unknown ids 404 and bad queries 400 in SendGrid's shape", async () => {
    const [, byX] = await h.client.request({ method: "GET", url: `/v3/messages/${xMessageId}` });
    expect((byX as { msg_id: string }).msg_id.startsWith(xMessageId)).toBe(true);
    const one = (await list(`msg_id="${xMessageId}"`)).messages[0]!;
    const [, bySg] = await h.client.request({ method: "GET", url: `/v3/messages/${one.msg_id}` });
    expect(bySg).toMatchObject({ msg_id: one.msg_id, to_email: one.to_email });
    expect(((bySg as { events: { event_name: string }[] }).events.map((e) => e.event_name))).toContain("accepted");
    await expect(h.client.request({ method: "GET", url: "/v3/messages/nosuchid0000000000000" })).rejects.toMatchObject({ code: 404 });
    await expect(h.client.request({ method: "GET", url: "/v3/messages", qs: { query: "opens_count>1" } }))
      .rejects.toMatchObject({ code: 400, response: { body: { errors: [{ field: "query" }] } } });
  });
});
