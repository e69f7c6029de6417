// The store port's part for bot detection's shared memory (tracking/bot/shared-memory.ts): honeypot
// visitors and recent interactions per message, kept by every engine for every node of a zone.

/** One interaction asked of the bot memory (tracking/bot/shared-memory.ts makes the keys: hashes, never raw input). */
export interface BotInteraction {
  /** The visitor: its IP and user agent, hashed. */
  visitor: string;
  /** The message and recipient interacted with, hashed; null when unknown (only the honeypot is asked). */
  messageKey: string | null;
  /**
   * Under which key the message's pattern is kept: the message, recipient and user agent, hashed,
   * so a person's click is not counted with a scanner's fetches of the same message (issue #38).
   * The pattern falls back to `messageKey` when absent.
   */
  patternKey?: string | null;
  /**
   * The message's hidden-link hit, kept under the message's pattern without a recipient (the link
   * names only the message): counted with this pattern's links too, when given.
   */
  honeypotRow?: { patternKey: string; link: string };
  /** The link clicked, hashed, stored for the message's pattern; null for an open (nothing stored). */
  link: string | null;
  now: number;
  /** Distinct links of the message are counted since each of these times (a second, a burst, the window ago). */
  since: { second: number; burst: number; window: number };
  /** A message with this many interactions in the window stores no more (a crawler's flood). */
  maxPerMessage: number;
  /**
   * Across messages (botnet signal): for an open (link null), its message is marked opened; for a
   * click, the click is stored under its visitor with its recipient and domain (hashed), unless the
   * visitor already has `maxPerVisitor` since `since`, and the visitor's spread since then is read.
   */
  across?: { recipient: string; domain: string; since: number; openedSince: number; maxPerVisitor: number };
}

/** What the bot memory knows of an interaction, this one included. */
export interface BotRecall {
  honeypot: boolean; linksInSecond: number; linksInBurst: number; linksInWindow: number;
  /** With `across`: the message had an open since `openedSince`, and the visitor's distinct recipients, domains and never-opened recipients since `since`, this click included (else false and zeros). */
  wasOpened: boolean; recipients: number; domains: number; unopened: number;
}

/**
 * The stateful signals of bot detection, shared by every node of the zone: honeypot visitors
 * (remembered until they expire) and recent interactions per message.
 */
export interface BotMemoryStore {
  /** Remembers `visitor` (hashed) as a honeypot visitor until `expiresAt` (or later, when it already was). */
  rememberHoneypotHit(visitor: string, expiresAt: number): Promise<void>;
  /** Records `i` (a click's link) and answers, in one read, whether its visitor is a live honeypot visitor and its message's distinct links.
   *  `i.now` is the interaction's own time: rows later than it (a caller's events read out of order) are not counted for it. */
  recallInteraction(i: BotInteraction): Promise<BotRecall>;
  /**
   * Forgets visitors expired at `now` and interactions before `interactionsBefore` (and, given
   * `older`, clicks across messages and opened marks before its times), then the oldest beyond
   * `max` of each; returns the rows removed.
   */
  pruneBotMemory(now: number, interactionsBefore: number, max: { visitors: number; interactions: number; spread?: number; opened?: number },
    older?: { spread: number; opened: number }): Promise<number>;
}
