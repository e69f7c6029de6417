// SendGrid scheduled-send batches through the official @sendgrid/client: batch ids, the pause and
// cancel statuses, and mail sent with batch_id + send_at honouring them: a cancelled batch's mail
// is never delivered, a paused batch's waits (across a restart) until the status is deleted.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { Client } from "@sendgrid/client";
import { MailService } from "@sendgrid/mail";
import { makeTestApp, type TestApp } from "../../helpers/app.ts";
import { startSink, type Sink } from "../../helpers/smtp-sink.ts";
import { eventually, pointClient } from "./setup.ts";

setDefaultTimeout(90_000);
let sink: Sink;
let t: TestApp;
let client: Client;
let mail: MailService;
let dir = "";

async function boot() {
  t = await makeTestApp({ toml: `[mta.routes]\n"*" = "127.0.0.1:${sink.port}"\n`, ...(dir ? { dir } : {}), keepDir: true });
  dir = t.dir;
  const { http } = await t.app.start();
  client = new Client();
  pointClient(client, t.domainKey, `http://${http}/`);
  mail = new MailService();
  mail.setClient(client);
}
beforeAll(async () => { sink = await startSink(); await boot(); });
afterAll(async () => { await t.close(); await sink.close(); });

const call = async (method: "GET" | "POST" | "PATCH" | "DELETE", url: string, body?: object) => {
  const [res, data] = await client.request({ method, url, ...(body ? { body } : {}) });
  return { status: res.statusCode, body: data as never };
};
const newBatch = async () => ((await call("POST", "/v3/mail/batch")).body as { batch_id: string }).batch_id;
const received = (rcpt: string) => sink.messages.filter((m) => m.to.includes(rcpt)).length;
const sendScheduled = async (to: string, batchId: string, inSeconds: number) => {
  const [res] = await mail.send({ to, from: "alice@example.com", subject: `for ${to}`, text: "t", batchId, sendAt: Math.floor(Date.now() / 1000) + inSeconds });
  return res.headers["x-message-id"] as string;
};
const recipientOf = async (id: string) => (await t.app.activity.message("example.com", id))!.recipients[0]!;

describe("batches and statuses", () => {
  test("a batch id validates; an unknown one is 400", async () => {
    const created = await call("POST", "/v3/mail/batch");
    expect(created.status).toBe(201);
    const id = (created.body as { batch_id: string }).batch_id;
    expect(id).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(await call("GET", `/v3/mail/batch/${id}`)).toEqual({ status: 200, body: { batch_id: id } as never });
    await expect(call("GET", "/v3/mail/batch/nope")).rejects.toMatchObject({ code: 400, response: { body: { errors: [{ field: "batch_id", message: "invalid batch id" }] } } });
  });

  test("pause, read, change to cancel, list, delete; bad input is 400", async () => {
    const id = await newBatch();
    expect(await call("POST", "/v3/user/scheduled_sends", { batch_id: id, status: "pause" })).toEqual({ status: 201, body: { batch_id: id, status: "pause" } as never });
    expect((await call("GET", `/v3/user/scheduled_sends/${id}`)).body).toEqual([{ batch_id: id, status: "pause" }] as never);
    expect((await call("PATCH", `/v3/user/scheduled_sends/${id}`, { status: "cancel" })).status).toBe(204);
    expect((await call("GET", "/v3/user/scheduled_sends")).body).toContainEqual({ batch_id: id, status: "cancel" } as never);
    expect((await call("DELETE", `/v3/user/scheduled_sends/${id}`)).status).toBe(204);
    expect((await call("GET", `/v3/user/scheduled_sends/${id}`)).body).toEqual([] as never);
    await expect(call("POST", "/v3/user/scheduled_sends", { batch_id: id, status: "stop" })).rejects.toMatchObject({ code: 400, response: { body: { errors: [{ field: "status" }] } } });
    await expect(call("POST", "/v3/user/scheduled_sends", { batch_id: "unknown", status: "pause" })).rejects.toMatchObject({ code: 400, response: { body: { errors: [{ field: "batch_id" }] } } });
    await expect(call("PATCH", `/v3/user/scheduled_sends/${id}`, { status: "pause" })).rejects.toMatchObject({ code: 404 });
    await expect(call("DELETE", `/v3/user/scheduled_sends/${id}`)).rejects.toMatchObject({ code: 404 });
  });
});

describe("mail of a held batch", () => {
  test("a cancelled batch is never delivered; an unheld one beside it is", async () => {
    const cancelled = await newBatch();
    const free = await newBatch();
    const id = await sendScheduled("cancelled@dest.test", cancelled, 2);
    await sendScheduled("free@dest.test", free, 2);
    await call("POST", "/v3/user/scheduled_sends", { batch_id: cancelled, status: "cancel" });
    await eventually(async () => received("free@dest.test"), (n) => n === 1);
    const r = await eventually(() => recipientOf(id), (x) => x.status === "failed");
    expect(r.status).toBe("failed");
    expect(received("cancelled@dest.test")).toBe(0);
    const events = await t.app.activity.events("example.com", { recipient: "cancelled@dest.test", limit: 10, ascending: true });
    expect(events.map((e) => [e.type, e.description])).toEqual([["accepted", undefined], ["failed", "scheduled send cancelled"]]);
  });

  test("a paused batch waits, across a restart, until its status is deleted", async () => {
    const paused = await newBatch();
    await call("POST", "/v3/user/scheduled_sends", { batch_id: paused, status: "pause" });
    const id = await sendScheduled("paused@dest.test", paused, 1);
    const held = await eventually(() => recipientOf(id), (x) => (x.lastResponse ?? "").startsWith("paused"));
    expect(held).toMatchObject({ status: "queued", attempts: 0 });
    await t.app.stop();
    await boot();
    await Bun.sleep(2_000);
    expect(received("paused@dest.test")).toBe(0);
    expect((await call("GET", `/v3/user/scheduled_sends/${paused}`)).body).toEqual([{ batch_id: paused, status: "pause" }] as never);
    expect((await call("DELETE", `/v3/user/scheduled_sends/${paused}`)).status).toBe(204);
    expect(await eventually(async () => received("paused@dest.test"), (n) => n === 1, 20_000)).toBe(1);
  });
});
