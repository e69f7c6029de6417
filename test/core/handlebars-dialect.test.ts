// Golden renders of the helper examples in SendGrid's "Using Handlebars" reference (data and
// expected text as the documentation gives them), Mailgun's `equal`, and the render budget.
import { describe, expect, test } from "bun:test";
import { BudgetExceeded, describeRenderError, renderHandlebars } from "../../src/core/handlebars-dialect.ts";
import { formatDate } from "../../src/core/format-date.ts";

const sg = (source: string, data: unknown) => renderHandlebars(source, data, { dialect: "comparisons", escapeHtml: true });

describe("SendGrid's helper reference, rendered", () => {
  test("formatDate: format, and a timezone offset", () => {
    const data = { timeStamp: "2020-01-01T23:00:00.000Z", dateFormat: "MMMM DD, YYYY h:mm:ss A", timezoneOffset: "-0800" };
    expect(sg("<p>Join us {{formatDate timeStamp dateFormat}}</p>", data)).toBe("<p>Join us January 01, 2020 11:00:00 PM</p>");
    expect(sg("<p>Join us {{formatDate timeStamp dateFormat timezoneOffset}}</p>", data)).toBe("<p>Join us January 01, 2020 3:00:00 PM</p>");
  });

  test("insert: the value, or the default", () => {
    const tpl = "<p>Hello {{insert name \"default=Customer\"}}! Thank you for contacting us about {{insert businessName \"your business\"}}.</p>";
    expect(sg(tpl, { name: "Ben", businessName: "Twilio SendGrid" })).toBe("<p>Hello Ben! Thank you for contacting us about Twilio SendGrid.</p>");
    expect(sg(tpl, {})).toBe("<p>Hello Customer! Thank you for contacting us about .</p>");
  });

  test("equals with else", () => {
    const tpl = "{{#equals customerCode winningCode}}<p>You have a winning code.</p>{{else}}<p>You do not have a winning code.</p>{{/equals}}";
    expect(sg(tpl, { customerCode: 12345, winningCode: 12345 })).toBe("<p>You have a winning code.</p>");
    expect(sg(tpl, { customerCode: 12345, winningCode: 67890 })).toBe("<p>You do not have a winning code.</p>");
    expect(sg(tpl, { customerCode: "12345", winningCode: 12345 })).toBe("<p>You have a winning code.</p>");
  });

  test("notEquals with else", () => {
    const tpl = "{{#notEquals currentDate appointmentDate}}<p>Your appointment is not today.</p>{{else}}<p>Your appointment is today.</p>{{/notEquals}}";
    expect(sg(tpl, { currentDate: 20230913, appointmentDate: 20230914 })).toBe("<p>Your appointment is not today.</p>");
    expect(sg(tpl, { currentDate: 20230913, appointmentDate: 20230913 })).toBe("<p>Your appointment is today.</p>");
  });

  test("greaterThan and lessThan with else", () => {
    const gt = "{{#greaterThan scoreOne scoreTwo}}<p>Congratulations, you have the high score today!</p>{{else}}<p>You were close, but you didn't get the high score today.</p>{{/greaterThan}}";
    expect(sg(gt, { scoreOne: 100, scoreTwo: 78 })).toBe("<p>Congratulations, you have the high score today!</p>");
    expect(sg(gt, { scoreOne: 55, scoreTwo: 78 })).toBe("<p>You were close, but you didn't get the high score today.</p>");
    const lt = "{{#lessThan scoreOne scoreTwo}}<p>You were close, but you didn't get the high score today.</p>{{else}}<p>Congratulations, you have the high score today!</p>{{/lessThan}}";
    expect(sg(lt, { scoreOne: 100, scoreTwo: 78 })).toBe("<p>Congratulations, you have the high score today!</p>");
  });

  test("and / or with else", () => {
    const and = "{{#and favoriteFood favoriteDrink}}<p>Thank you for letting us know your dining preferences.</p>{{else}}<p>If you finish filling out your dining preferences survey, we can deliver you recipes we think you'll be most interested in.</p>{{/and}}";
    expect(sg(and, { favoriteFood: "Pasta", favoriteDrink: "" })).toContain("If you finish filling out");
    expect(sg(and, { favoriteFood: "Pasta", favoriteDrink: "Coffee" })).toBe("<p>Thank you for letting us know your dining preferences.</p>");
    const or = "{{#or isRunner isCyclist}}<p>We think you might enjoy a map of trails in your area.</p>{{else}}<p>Have you tried cycling or running?</p>{{/or}}";
    expect(sg(or, { isRunner: true, isCyclist: false })).toBe("<p>We think you might enjoy a map of trails in your area.</p>");
    expect(sg(or, { isRunner: false, isCyclist: false })).toBe("<p>Have you tried cycling or running?</p>");
  });

  test("length, alone and inside a comparison", () => {
    const data = { cartItems: ["raft", "oars", "life vest"] };
    expect(sg("<p>You have {{length cartItems}} items in your cart.</p>", data)).toBe("<p>You have 3 items in your cart.</p>");
    expect(sg("{{#greaterThan (length cartItems) 0}}<p>It looks like you still have some items in your shopping cart.</p>{{/greaterThan}}", data))
      .toBe("<p>It looks like you still have some items in your shopping cart.</p>");
  });

  test("{{else}} chains across helpers, and if / else if", () => {
    const tpl = "{{#equals level 1}}gold{{else equals level 2}}silver{{else greaterThan level 2}}bronze{{else}}none{{/equals}}";
    expect([1, 2, 3, 0].map((level) => sg(tpl, { level }))).toEqual(["gold", "silver", "bronze", "none"]);
    const iff = "{{#if user.profile.male}}<p>Dear Sir</p>{{else if user.profile.female}}<p>Dear Madame</p>{{else}}<p>Dear Customer</p>{{/if}}";
    expect(sg(iff, { user: { profile: { female: true } } })).toBe("<p>Dear Madame</p>");
  });

  test("each over objects and arrays", () => {
    const tpl = "<ol>{{#each user.orderHistory}}<li>You ordered: {{this.item}} on: {{this.date}}</li>{{/each}}</ol>";
    const data = { user: { orderHistory: [{ date: "2/1/2018", item: "shoes" }, { date: "1/4/2017", item: "hat" }] } };
    expect(sg(tpl, data)).toBe("<ol><li>You ordered: shoes on: 2/1/2018</li><li>You ordered: hat on: 1/4/2017</li></ol>");
  });
});

describe("dialects and limits", () => {
  test("Mailgun's equal helper; SendGrid's helpers are not Mailgun's", () => {
    expect(renderHandlebars("{{#equal plan \"pro\"}}P{{else}}F{{/equal}}", { plan: "pro" }, { dialect: "equal", escapeHtml: false })).toBe("P");
    expect(() => renderHandlebars("{{#equals a b}}x{{/equals}}", {}, { dialect: "equal", escapeHtml: false })).toThrow(/Missing helper/);
  });

  test("a missing helper is named", () => {
    let err: unknown;
    try { sg("{{#unknownHelper a}}x{{/unknownHelper}}", {}); } catch (e) { err = e; }
    expect(describeRenderError(err)).toBe('missing helper "unknownHelper"');
  });

  test("loops and output are bounded", () => {
    const limits = { maxIterations: 1000, maxMillis: 5000, maxOutputChars: 1_000_000 };
    const many = { a: Array.from({ length: 100 }, (_, i) => i) };
    expect(() => renderHandlebars("{{#each a}}{{#each ../a}}x{{/each}}{{/each}}", many, { dialect: "comparisons", escapeHtml: false, limits })).toThrow(BudgetExceeded);
    const big = { s: "y".repeat(600_000) };
    expect(() => renderHandlebars("{{s}}{{s}}", big, { dialect: "comparisons", escapeHtml: false, limits })).toThrow(BudgetExceeded);
    expect(renderHandlebars("{{#each a}}{{this}}{{/each}}", { a: [1, 2] }, { dialect: "comparisons", escapeHtml: false, limits })).toBe("12");
  });

  test("formatDate reads epoch seconds and milliseconds and offsets with a colon", () => {
    expect(formatDate(1577919600, "YYYY-MM-DD HH:mm")).toBe("2020-01-01 23:00");
    expect(formatDate(1577919600000, "YYYY-MM-DD HH:mm Z", "+05:30")).toBe("2020-01-02 04:30 +05:30");
    expect(formatDate("not a date", "YYYY")).toBe("");
  });
});
