// Inbound SMTP for a domain of a zone served by another node: two real nodes (zone us, zone eu),
// each with its own SMTP listener on 127.0.0.1, a real SMTP client (nodemailer). Mail for the eu
// domain sent to the us node is refused at RCPT with a 451 naming zone eu; sent to the eu node it
// is received there, and only the eu node's store holds it. The control data a shared database
// would give both nodes is written into each node's own control store here.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import nodemailer from "nodemailer";
import { makeTestApp, type TestApp } from "../helpers/app.ts";
import { freePort } from "../helpers/free-port.ts";
import type { Domain } from "../../src/core/model.ts";

setDefaultTimeout(60_000);
let us: TestApp;
let eu: TestApp;
const smtpPort: Record<"us" | "eu", number> = { us: 0, eu: 0 };

const euDomain = (): Omit<Domain, "createdAt" | "updatedAt" | "state"> => ({ name: "eu.test", zone: "eu", wildcard: false, dkimSelector: "s1", keys: [],
  validation: true, botDetection: true, openTracking: false, clickTracking: false, unsubscribeTracking: false, inbound: true, limitMax: 0, limitWindow: "month" }) as never;

beforeAll(async () => {
  // Each node's zone url names a port of its own (nothing here is proxied over HTTP).
  const [usHttp, euHttp] = [await freePort(), await freePort()];
  const zones = (other: string, port: number) => `[zones]\nnames = ["us", "eu"]\ndefault = "${other === "eu" ? "us" : "eu"}"\n[zones.${other}]\nurl = "http://127.0.0.1:${port}"\n`;
  us = await makeTestApp({ serverToml: `zone = "us"`, toml: `bounce_domain = "return.eu.test"\n${zones("eu", euHttp)}` });
  eu = await makeTestApp({ serverToml: `zone = "eu"`, toml: zones("us", usHttp), domain: "other.eu-node.test" });
  for (const node of [us, eu]) {
    await node.app.store.control.insertDomain(euDomain() as never, Date.now());
    await node.app.store.control.updateDomain("eu.test", { state: "active", inbound: true }, Date.now());
  }
  smtpPort.us = Number((await us.app.start()).smtp!.split(":").pop());
  smtpPort.eu = Number((await eu.app.start()).smtp!.split(":").pop());
});
afterAll(async () => { await us?.close(); await eu?.close(); });

const send = (zone: "us" | "eu", to: string) => nodemailer.createTransport({ host: "127.0.0.1", port: smtpPort[zone], secure: false, ignoreTLS: true })
  .sendMail({ from: "someone@sender.example", to, subject: "for the eu domain", text: "hello eu" });
const failure = (p: Promise<unknown>) => p.then(() => null, (e: { responseCode?: number; response?: string }) => e);

describe("inbound SMTP for a domain of a zone served elsewhere", () => {
  test("the us node refuses it at RCPT with a 451 naming zone eu; the eu node receives it into its own store only", async () => {
    const refused = await failure(send("us", "sales@eu.test"));
    expect(refused?.responseCode).toBe(451);
    expect(refused?.response).toMatch(/4\.3\.5 <sales@eu\.test>: mail for eu\.test is received by the nodes of zone eu, not by this node \(zone us\)/);
    expect(us.app.store.zoneNames()).toEqual(["us"]);

    const info = await send("eu", "sales@eu.test");
    const id = /received as (\S+)/.exec(info.response)?.[1];
    expect(id).toBeDefined();
    expect(eu.app.store.zoneNames()).toEqual(["eu"]);
    expect((await eu.app.store.zone("eu").getInbound(id!))?.envelope.rcptTo).toEqual(["sales@eu.test"]);
  });

  test("bounce and report addresses of the eu domain are refused too; the node's own bounce domain is not", async () => {
    for (const to of ["b+abc@bounces.eu.test", "postmaster@eu.test", "x@sub.eu.test"]) {
      expect((await failure(send("us", to)))?.responseCode).toBe(451);
    }
    // return.eu.test is this node's mta.bounce_domain: its VERP paths are the us zone's, whatever its parent.
    const own = await failure(send("us", "postmaster@return.eu.test"));
    expect(own?.responseCode).not.toBe(451);
  });

  test("mail for a domain of the node's own zone is not touched by the gate", async () => {
    const refused = await failure(send("us", "nobody@example.com"));
    expect(refused?.responseCode).toBe(554); // example.com does not receive: relay denied, as before
  });
});
