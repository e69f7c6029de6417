// SparkPost's metrics lists (src/api/sparkpost/metrics-lists.ts) through the official sparkpost
// client: the campaigns, recipient domains and sending domains seen in a range of real sends.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { startSpEnv, type SpEnv } from "./setup.ts";

setDefaultTimeout(60_000);
let env: SpEnv;
const from = new Date(Date.now() - 3_600_000).toISOString().slice(0, 16);

beforeAll(async () => {
  env = await startSpEnv();
  await env.domain.transmissions.send({ campaign_id: "spring",
    content: { from: "news@example.com", subject: "metrics", html: "<p>hello</p>" },
    recipients: [{ address: "ok@dest.test" }, { address: "ok@other.test" }] });
  const deadline = Date.now() + 20_000;
  const done = async () => (await env.t.app.activity.events("example.com", { types: ["delivered"], limit: 10 })).length >= 2;
  while (!(await done()) && Date.now() < deadline) await Bun.sleep(50);
});
afterAll(async () => { await env.close(); });

describe("metrics lists", () => {
  test("the lists of campaigns, domains and sending domains seen in the range", async () => {
    const list = async (uri: string, qs: Record<string, string> = {}) => (await env.domain.get({ uri: `metrics/${uri}`, qs: { from, ...qs } })).results;
    expect(await list("campaigns")).toEqual({ campaigns: ["spring"] });
    expect(await list("domains")).toEqual({ domains: ["dest.test", "other.test"] });
    expect(await list("domains", { match: "oth" })).toEqual({ domains: ["other.test"] });
    expect(await list("sending-domains")).toEqual({ "sending-domains": ["example.com"] });
    expect(await list("templates")).toEqual({ templates: [] });
  });
});
