// Every webhook format postern speaks, by name. Adding a format: one file in formats/ and one line
// in FORMATS (and one in FORMAT when a surface or the receiver must name it). Outside formats/ and
// this file nothing spells a format's name: surfaces and the inbound receiver use FORMAT.
import type { WebhookFormat } from "./format.ts";
import { mailgun } from "./formats/mailgun.ts";
import { native } from "./formats/native.ts";
import { sendgrid } from "./formats/sendgrid.ts";
import { sparkpost } from "./formats/sparkpost.ts";
import { bot } from "./formats/bot.ts";
import { mailgunRoute, mailgunStore } from "./formats/mailgun-route.ts";
import { sendgridParse } from "./formats/sendgrid-parse.ts";
import { sparkpostRelay } from "./formats/sparkpost-relay.ts";
import { notice } from "./formats/notice.ts";

const FORMATS: WebhookFormat[] = [
  mailgun,
  native,
  sendgrid,
  sparkpost,
  bot,
  mailgunRoute,
  mailgunStore,
  sendgridParse,
  sparkpostRelay,
  notice,
];

const BY_NAME = new Map(FORMATS.map((f) => [f.name, f]));

/** The names of the formats the surfaces create targets of, ask samples and pings of, and the receiver posts in. */
export const FORMAT = {
  mailgun: mailgun.name, native: native.name, sendgrid: sendgrid.name, sparkpost: sparkpost.name,
  mailgunRoute: mailgunRoute.name, mailgunStore: mailgunStore.name, sendgridParse: sendgridParse.name, sparkpostRelay: sparkpostRelay.name,
  notice: notice.name,
} as const;

/** Targets of these formats keep one Mailgun webhook id each (extra.mailgunId): the Mailgun and native APIs' shape. */
export const isMailgunShaped = (format: string): boolean => format === mailgun.name || format === native.name;

/** The format called `name`; throws for a name no format has (a stored row from a newer version). */
export function formatNamed(name: string): WebhookFormat {
  const f = BY_NAME.get(name);
  if (!f) throw new Error(`unknown webhook format ${name}`);
  return f;
}

export const formatNames = (): string[] => FORMATS.map((f) => f.name);

/** The format of a message's callback_url: the one claiming its source, else the first (Mailgun's). */
export function callbackFormat(source: string): WebhookFormat {
  return FORMATS.find((f) => f.callbackSources.includes(source)) ?? FORMATS[0]!;
}

/** The formats that keep retrying for their vendor's documented window instead of `[webhooks] lifetime`. */
const LIFETIMES = new Map(FORMATS.filter((f) => f.lifetimeMs !== undefined).map((f) => [f.name, f.lifetimeMs!]));
export const formatLifetimes = (): ReadonlyMap<string, number> => LIFETIMES;
