import { describe, expect, test } from "bun:test";
import { classFromProviderCode } from "../../../src/core/bounce/providers.ts";
import { classifyBounce } from "../../../src/core/bounce/index.ts";

describe("numbered provider refusals (Orange / La Poste)", () => {
  test("the number decides whatever the words", () => {
    expect(classFromProviderCode("550 5.5.0 Le compte du destinataire est bloque. The recipient account is blocked. LPN007_426")).toBe(10);
    expect(classFromProviderCode("550 5.5.0 Service refuse. Veuillez essayer plus tard. service refused, please try later. LPN001_108")).toBe(50);
    expect(classFromProviderCode("421 mwinf5c77 ME Service refuse. Veuillez essayer plus tard. OFR_999 [999]")).toBe(51);
    expect(classFromProviderCode("552 5.2.2 Boite du destinataire pleine. Recipient overquota. OFR_417")).toBe(22);
  });
  test("Orange's \"Too many connections, slow down\" (OFR004_104) is a rate: deferred under 421, a block when permanent", () => {
    const text = "421 OFR004_104 Trop de connexions, veuillez verifier votre configuration / Too many connections, slow down";
    expect(classFromProviderCode(text)).toBe(70);
    expect(classFromProviderCode(text.replace("421", "550"))).toBe(50);
    expect(classifyBounce({ text }).category).toBe("soft");
  });
  test("no number, or one not in the table, says nothing", () => {
    expect(classFromProviderCode("550 5.1.1 user unknown")).toBeUndefined();
    expect(classFromProviderCode("550 LPN001_777")).toBeUndefined();
  });
  test("through the classifier: an Orange block on a 5xx is a block, not a generic failure", () => {
    expect(classifyBounce({ text: "550 5.5.0 Service refuse. Veuillez essayer plus tard. LPN001_108" }).category).toBe("block");
  });
});
