// POST /signup. With confirmations on (the default) a new address gets a confirmation email and
// the answer is the user without a session; an address that already has an account gets an answer
// shaped exactly like that (and its owner a notice), so sign-up reveals no account.
import type { FastifyInstance } from "fastify";
import { isUniqueViolation, type Queryable } from "../../db/database.ts";
import type { AuthContext } from "../context.ts";
import { alreadyRegisteredEmail } from "../emails/account-emails.ts";
import { emailedRecently, sentRecently, spendEmailBudget } from "../emails/email-limits.ts";
import { sendConfirmationEmail } from "../emails/link-emails.ts";
import { AuthError, ErrorCode } from "../errors.ts";
import { parsePkce } from "../models/flow-states.ts";
import { signIn } from "../models/sessions.ts";
import {
  createUser,
  decoyUser,
  findUserByEmail,
  identitiesOf,
  serializeUser,
  type UserRow,
} from "../models/users.ts";
import { checkPasswordPolicy, hashPassword } from "../passwords.ts";
import { safeRedirect } from "../redirects.ts";
import { queryParam, readBody, readEmailOrRefuse, readMetadata } from "../request.ts";

export default async function signup(app: FastifyInstance, { ctx }: { ctx: AuthContext }) {
  const { config, db, mailer } = app;

  app.post("/signup", { onRequest: ctx.emailRequests }, async (request) => {
    const body = readBody(request);
    const email = readEmailOrRefuse(body, {
      phone: new AuthError(400, ErrorCode.phone_provider_disabled, "Phone signups are disabled"),
      missing: new AuthError(
        422,
        ErrorCode.anonymous_provider_disabled,
        "Anonymous sign-ins are disabled",
      ),
    });
    const password = checkPasswordPolicy(body.password, "Signup requires a valid password");
    const metadata = readMetadata(body.data);
    const pkce = parsePkce(body);
    const redirectTo = safeRedirect(queryParam(request, "redirect_to"), config.siteUrl);
    // Hash in every case, so the time taken does not tell a new address from a known one.
    const passwordHash = await hashPassword(password);
    if (!config.mailerAutoconfirm) await spendEmailBudget(request, "auth-confirmation", email);

    const sendConfirmation = (tx: Queryable, user: UserRow) =>
      sendConfirmationEmail(
        tx,
        mailer,
        { id: user.id, email },
        { pkce, siteUrl: config.siteUrl, redirectTo },
      );

    const result = await db
      .transaction(async (tx) => {
        const existing = await findUserByEmail(tx, email, true);
        if (config.mailerAutoconfirm) {
          if (existing)
            throw new AuthError(422, ErrorCode.user_already_exists, "User already registered");
          const user = await createUser(tx, { email, passwordHash, metadata, confirmed: true });
          return signIn(tx, ctx, user, "password", request);
        }
        if (existing?.email_confirmed_at) {
          if (!(await emailedRecently(tx, "auth-already-registered", email))) {
            await mailer.enqueue(tx, alreadyRegisteredEmail(email, config.siteUrl));
          }
          return decoyUser(email, metadata);
        }
        if (existing) {
          // Not confirmed yet: send the confirmation again (at most once a minute); the password is
          // kept. The answer is a decoy too: the stored user (its id, metadata and creation time)
          // would tell that somebody signed up with this address before.
          if (!sentRecently(existing.confirmation_sent_at)) await sendConfirmation(tx, existing);
          return decoyUser(email, metadata);
        }
        const created = await createUser(tx, { email, passwordHash, metadata, confirmed: false });
        const user = await sendConfirmation(tx, created);
        return serializeUser(user, await identitiesOf(tx, user.id));
      })
      .catch((err: unknown) => {
        // Two sign-ups for one address at the same moment: the loser answers as if it came second.
        if (!isUniqueViolation(err)) throw err;
        if (config.mailerAutoconfirm)
          throw new AuthError(422, ErrorCode.user_already_exists, "User already registered");
        return decoyUser(email, metadata);
      });
    mailer.flush();
    return result;
  });
}
