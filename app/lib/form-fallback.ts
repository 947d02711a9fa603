// Where every <form> on the site posts without its script: each form is `method="post"` (never a
// GET that would put the fields, a password among them, in the URL) with this action, the server's
// fallback, which sends the visitor to a page explaining that the form needs JavaScript. With the
// script, the form's own submit handler runs and the browser's submission never happens.
export { FORM_FALLBACK_ACTION } from "../../common/site-build.ts";
