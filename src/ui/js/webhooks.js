// Webhooks per domain: targets of every format (Mailgun, native, SendGrid, SparkPost), add and
// remove, and Test (POSTs a signed sample in the target's format and shows the answer).
import { get, post, del, enc } from "./api.js";
import { h, field, select, table, when, toast, onSubmit, button, actions } from "./dom.js";
import { domainPicker } from "./domains.js";

const FORMAT_NAMES = { mailgun: "Mailgun", native: "native", sendgrid: "SendGrid", sparkpost: "SparkPost" };

function addForm(name, info, onAdded) {
  const format = select(info.formats.map((f) => [f, FORMAT_NAMES[f] ?? f]), "mailgun", { name: "format" });
  const url = h("input", { name: "url", type: "url", required: true, placeholder: "https://hooks.example.com/mail" });
  const boxes = info.types.map((t) => h("input", { type: "checkbox", value: t, checked: t === "delivered" }));
  const form = h("form", { class: "card" }, h("h2", {}, "Add webhook"),
    h("div", { class: "row" }, field("Format", format), field("URL", url)),
    h("fieldset", {}, h("legend", {}, "Events (Mailgun and native: exactly one)"), h("div", { class: "grid" }, boxes.map((b) => field(b.value, b)))),
    h("p", {}, h("button", { type: "submit" }, "Add webhook")));
  return onSubmit(form, async () => {
    await post(`/domains/${enc(name)}/webhooks`, { format: format.value, url: url.value, events: boxes.filter((b) => b.checked).map((b) => b.value) });
    url.value = "";
    toast("Webhook added");
    await onAdded();
  });
}

export async function webhooksPage(ctx) {
  ctx.view.append(h("h1", {}, "Webhooks"));
  const area = h("div");
  await domainPicker(ctx, async (name) => {
    const list = h("section", { class: "card" });
    const result = h("div", { role: "status" });
    const draw = async () => {
      const info = await get(`/domains/${enc(name)}/webhooks`);
      list.replaceChildren(h("h2", {}, `Targets of ${name}`), result, table(["Format", "URL", "Events", "Created", ""], info.targets.map((w) => [
        FORMAT_NAMES[w.format] ?? w.format, h("code", {}, w.url), w.events.length ? w.events.join(", ") : "all", when(w.createdAt),
        actions(
          button("Test", async () => {
            const r = await post(`/domains/${enc(name)}/webhooks/${enc(w.id)}/test`);
            result.replaceChildren(h("p", { class: r.status >= 200 && r.status < 300 ? "" : "error" },
              `Test POST to ${w.url}: ${r.status ? `HTTP ${r.status}` : "no answer"} `, h("code", {}, r.answer.slice(0, 300))));
          }, "secondary"),
          button("Remove", async () => { await del(`/domains/${enc(name)}/webhooks/${enc(w.id)}`); toast("Webhook removed"); await draw(); }, "danger")),
      ]), "No webhooks for this domain."));
      return info;
    };
    const info = await draw();
    area.replaceChildren(addForm(name, info, draw), list);
  });
  ctx.view.append(area);
}
