// Console webhook targets (src/api/console/webhooks.ts) on a real postern: add targets of each
// format, Test posts the format's ping to a local receiver, remove; bad input is a 400.
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { startReceiver } from "../../helpers/receiver.ts";
import { consoleSignedIn } from "./setup.ts";

setDefaultTimeout(60_000);
const receiver = startReceiver();
const ui = consoleSignedIn("domainKey");
afterAll(() => { receiver.stop(); });
const PATH = "/domains/example.com/webhooks";

describe("console webhooks", () => {
  test("add a Mailgun and a SendGrid target, list them, Test one, remove it", async () => {
    const mg = await (await ui.client.call("POST", PATH, { format: "mailgun", url: receiver.url, events: ["delivered"] })).json();
    expect(mg).toMatchObject({ format: "mailgun", url: receiver.url, events: ["delivered"], accountWide: false });
    const sg = await (await ui.client.call("POST", PATH, { format: "sendgrid", url: receiver.url, events: ["delivered", "opened"] })).json();
    const listed = await (await ui.client.call("GET", PATH)).json();
    expect(listed.formats).toEqual(expect.arrayContaining(["mailgun", "native", "sendgrid", "sparkpost"]));
    expect(listed.targets.map((t: { id: string }) => t.id).sort()).toEqual([mg.id, sg.id].sort());
    expect(await ui.env.t.app.webhooks.list((await ui.env.t.app.domains.get("example.com"))!.id)).toHaveLength(2);
    const before = receiver.received.length;
    const ping = await (await ui.client.call("POST", `${PATH}/${sg.id}/test`)).json();
    expect(ping.status).toBe(200);
    expect(receiver.received.length).toBe(before + 1);
    expect(Array.isArray(receiver.received.at(-1)!.json)).toBe(true); // SendGrid posts an array of events
    expect(await (await ui.client.call("DELETE", `${PATH}/${sg.id}`)).json()).toEqual({ message: "removed" });
    expect((await (await ui.client.call("GET", PATH)).json()).targets.map((t: { id: string }) => t.id)).toEqual([mg.id]);
    expect((await ui.client.call("DELETE", `${PATH}/${sg.id}`)).status).toBe(404);
  });

  test("bad formats, events and URLs are 400s", async () => {
    const bad = [{ format: "postmark", url: receiver.url, events: ["delivered"] }, { format: "sendgrid", url: receiver.url, events: ["bounced-ish"] },
      { format: "mailgun", url: receiver.url, events: ["delivered", "opened"] }, { format: "sendgrid", events: ["delivered"] }];
    for (const body of bad) {
      const res = await ui.client.call("POST", PATH, body);
      expect(res.status).toBe(400);
      expect(typeof (await res.json()).message).toBe("string");
    }
  });
});
