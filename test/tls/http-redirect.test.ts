// http_listen's answers: HTTP-01 key authorizations while an order is open, a 308 to https for
// everything else with the same path and query.
import { expect, test } from "bun:test";
import { createHttpRedirect } from "../../src/tls/http-redirect.ts";
import { createChallengeAnswers } from "../../src/tls/challenges.ts";

const challenges = createChallengeAnswers();
const r = createHttpRedirect({ host: "127.0.0.1", port: 0, publicUrl: "http://mail.example.test:8443/ignored-path", challenges });

test("a challenge token is answered with its key authorization; an unknown one is a 404", async () => {
  await challenges.set("tok-1", "tok-1.thumbprint");
  const res = await r.handle(new Request("http://mail.example.test/.well-known/acme-challenge/tok-1"));
  expect(res.status).toBe(200);
  expect(await res.text()).toBe("tok-1.thumbprint");
  expect((await r.handle(new Request("http://mail.example.test/.well-known/acme-challenge/other"))).status).toBe(404);
});

test("everything else goes with a 308 to https at public_url's host, same path and query", async () => {
  for (const method of ["GET", "HEAD", "POST"]) {
    const res = await r.handle(new Request("http://mail.example.test/v3/mail/send?x=1&y=%20", { method }));
    expect(res.status).toBe(308);
    expect(res.headers.get("location")).toBe("https://mail.example.test:8443/v3/mail/send?x=1&y=%20");
  }
});
