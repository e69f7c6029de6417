// Which webhook targets an event goes to: an inactive target (SparkPost `active: false`) gets
// nothing; otherwise the target's format decides from its stored subscription.
import type { MessageEvent } from "../core/model.ts";
import type { WebhookTarget } from "../core/store-port.ts";
import { formatNamed } from "./registry.ts";

export function isSubscribed(target: WebhookTarget, event: MessageEvent): boolean {
  if (target.extra.active === false) return false;
  return formatNamed(target.format).subscribes(target, event);
}
