// Throughput of the validation engine: parses/s (plain, named, slow-path, lists) and
// validations/s with DNS answered from a mock resolver and cached per domain.
// Run: bun bench/validation.ts
import { createMockResolver, type MockZone } from "../src/dns.ts";
import { parseAddress, parseAddressList } from "../src/core/address/address.ts";
import { createValidator } from "../src/validation/verdict.ts";

const PARSE_COUNT = 200_000;
const LIST_COUNT = 20_000;
const LIST_SIZE = 10;
const VALIDATE_COUNT = 50_000;
const DOMAIN_COUNT = 50;
// Best of several rounds: the first pays for JIT warm-up, and a shared machine adds noise.
const ROUNDS = 3;

const report = (label: string, count: number, ms: number) =>
  console.log(`${label.padEnd(44)} ${Math.round((count * 1000) / ms).toLocaleString("en-US").padStart(12)} /s`);

function rate(label: string, count: number, run: () => void): void {
  let best = Number.POSITIVE_INFINITY;
  for (let r = 0; r < ROUNDS; r++) {
    const started = performance.now();
    run();
    best = Math.min(best, performance.now() - started);
  }
  report(label, count, best);
}

async function rateAsync(label: string, count: number, run: (round: number) => Promise<void>): Promise<void> {
  let best = Number.POSITIVE_INFINITY;
  for (let r = 0; r < ROUNDS; r++) {
    const started = performance.now();
    await run(r);
    best = Math.min(best, performance.now() - started);
  }
  report(label, count, best);
}

const domains = Array.from({ length: DOMAIN_COUNT }, (_, i) => `domain${i}.example`);
const plain = Array.from({ length: PARSE_COUNT }, (_, i) => `user.${i}+tag@${domains[i % DOMAIN_COUNT]}`);
const named = plain.map((a, i) => `User Number${i} <${a}>`);
const unusual = plain.map((a, i) => `"Nümber, ${i}" (work) <"odd ${i}"@${domains[i % DOMAIN_COUNT]}>`);
const lists = Array.from({ length: LIST_COUNT }, (_, i) =>
  plain.slice(i * LIST_SIZE, (i + 1) * LIST_SIZE).map((a, j) => (j % 2 ? a : `Name ${j} <${a}>`)).join("; "),
);

let sink = 0;
rate("parseAddress plain local@domain", PARSE_COUNT, () => {
  for (const a of plain) sink += parseAddress(a) ? 1 : 0;
});
rate("parseAddress Name <local@domain>", PARSE_COUNT, () => {
  for (const a of named) sink += parseAddress(a) ? 1 : 0;
});
rate("parseAddress quoted/comment/Unicode (slow)", PARSE_COUNT / 10, () => {
  for (const a of unusual.slice(0, PARSE_COUNT / 10)) sink += parseAddress(a) ? 1 : 0;
});
rate(`parseAddressList (${LIST_SIZE}-address lists, per address)`, LIST_COUNT * LIST_SIZE, () => {
  for (const l of lists) sink += parseAddressList(l).parsed.length;
});

const zones: Record<string, MockZone> = Object.fromEntries(
  domains.map((d) => [d, { mx: [{ exchange: `mx.${d}`, priority: 10 }] }]),
);
const validator = createValidator({ resolver: createMockResolver(zones), now: () => 1_767_225_600_000, cacheTtlMs: 3_600_000 });
for (const d of domains) await validator.validate(`warm@${d}`);

const slice = (round: number) => plain.slice(round * VALIDATE_COUNT, (round + 1) * VALIDATE_COUNT);
await rateAsync("validate (new addresses, DNS cached)", VALIDATE_COUNT, async (round) => {
  for (const a of slice(round)) sink += (await validator.validate(a)).sendex;
});
await rateAsync("validate (repeat addresses, verdict cached)", VALIDATE_COUNT, async () => {
  for (const a of slice(ROUNDS - 1)) sink += (await validator.validate(a)).sendex;
});
await rateAsync("validate (typo domain, no DNS zone)", VALIDATE_COUNT / 10, async (round) => {
  for (let i = 0; i < VALIDATE_COUNT / 10; i++) sink += (await validator.validate(`u${round}.${i}@gmial.com`)).sendex;
});
if (sink < 0) console.log(sink);
