// SpamAssassin (Debian's `spamassassin`) in offline mode (-L: local tests only, no DNS or network
// checks) as a scorer for tests: the score and the rules that fired for one raw message.

export interface SpamVerdict {
  score: number;
  rules: string[];
}

export async function spamScore(raw: string): Promise<SpamVerdict> {
  const proc = Bun.spawn(["spamassassin", "-L", "-t", "--cf=use_bayes 0", "--cf=bayes_auto_learn 0"], { stdin: new TextEncoder().encode(raw), stdout: "pipe", stderr: "ignore" });
  const out = await new Response(proc.stdout as ReadableStream).text();
  await proc.exited;
  const status = /^X-Spam-Status: .*?score=(-?[\d.]+)[\s\S]*?tests=([\s\S]*?)\s+autolearn/m.exec(out);
  if (!status) throw new Error(`no X-Spam-Status from spamassassin: ${out.slice(0, 300)}`);
  return { score: Number(status[1]), rules: status[2]!.replace(/\s+/g, "").split(",").filter((r) => r && r !== "none") };
}
