// Which "first" an open or click is, for its message and recipient: decided once, when it is
// recorded, from the opens and clicks recorded before it. A unique count (SendGrid's unique_opens,
// SparkPost's count_unique_rendered…) is then a sum of flags, per hour, that survives retention.
import type { MessageEvent } from "../model.ts";

type Interaction = Pick<MessageEvent, "type" | "isBot">;

/** The firsts `e` (an open or click) is, given the earlier opens and clicks of its message and recipient. */
export function firstsOf(e: Interaction, earlier: Interaction[]): NonNullable<MessageEvent["firsts"]> {
  const out: NonNullable<MessageEvent["firsts"]> = [];
  const before = earlier.filter((x) => x.type === "opened" || x.type === "clicked");
  const sameType = before.filter((x) => x.type === e.type);
  if (sameType.length === 0) out.push("once");
  if (!e.isBot && !sameType.some((x) => !x.isBot)) out.push("human");
  if (before.length === 0) out.push("engaged");
  if (!e.isBot && !before.some((x) => !x.isBot)) out.push("human-engaged");
  return out;
}
