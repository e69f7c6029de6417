// The nodemailer transports tested here ship no types; each is a factory of a nodemailer transport.
declare module "nodemailer-sendgrid" { const f: (o: { apiKey: string }) => import("nodemailer").Transport; export default f; }
declare module "nodemailer-mailgun-transport" { const f: (o: { auth: { api_key: string; domain: string }; url?: string }) => import("nodemailer").Transport; export default f; }
declare module "nodemailer-sparkpost-transport" { const f: (o: { sparkPostApiKey: string; endpoint?: string }) => import("nodemailer").Transport; export default f; }
