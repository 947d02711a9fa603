// Footer newsletter sign-up: the address is checked as the server checks it (the shared schema),
// and one it would refuse stays in the field to be fixed; a spinner while submitting, the field
// is cleared once sent, whatever the answer. The toast says what happened (decision 0055): a new
// address must confirm first ("Almost done"); a duplicate (23505) of an address still pending says
// whether its confirmation went again, else it is "Already subscribed". The field is read from the
// page (uncontrolled): what a visitor typed before this island woke up counts.
import { NEWSLETTER_PENDING, newsletterSchema } from "../../common/leads.ts";
import { Button } from "../components/ui/button.tsx";
import { Icon } from "../components/ui/icon.tsx";
import { Input } from "../components/ui/input.tsx";
import { footer } from "../content/site.ts";
import { leadSource } from "../lib/lead-source.ts";
import { getSupabase } from "../lib/supabase.ts";
import { toast } from "../lib/toast.ts";
import { useBusyAction } from "../lib/use-busy-action.ts";
import { PrivacyNote } from "./privacy-note.tsx";
import { ScriptForm } from "./script-form.tsx";

const TOASTS = footer.newsletter.toasts;

export function NewsletterForm({ className }: { className?: string }) {
  const [submitting, run] = useBusyAction();

  const onSubmit = (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const parsed = newsletterSchema.safeParse({ email: new FormData(form).get("email") ?? "" });
    if (!parsed.success) {
      toast({ variant: "destructive", ...TOASTS.invalid });
      return;
    }
    const { email } = parsed.data;
    return run(async () => {
      try {
        const supabase = await getSupabase();
        const { error, status } = await supabase
          .from("newsletter_subscribers")
          .insert({ email, source: leadSource() });
        // 201: a confirmation went now; 200: one went within the hour, and none goes now.
        if (!error) toast(status === 201 ? TOASTS.pending : TOASTS.waiting);
        else if (error.code !== "23505") throw error;
        else if (error.details === NEWSLETTER_PENDING.resent) toast(TOASTS.resent);
        else if (error.details === NEWSLETTER_PENDING.waiting) toast(TOASTS.waiting);
        else toast(TOASTS.subscribed);
      } catch {
        toast({ variant: "destructive", ...TOASTS.failed });
      } finally {
        form.reset();
      }
    });
  };

  return (
    <ScriptForm label="Newsletter" className={className} onSubmit={onSubmit}>
      <div className="flex gap-2">
        <label htmlFor="newsletter-email" className="sr-only">
          Email address
        </label>
        {/* The control's look, on the footer's dark ground. */}
        <Input
          id="newsletter-email"
          name="email"
          type="email"
          autoComplete="email"
          inputMode="email"
          placeholder="you@company.com"
          className="flex-1 border-white/25 bg-white/10 text-sm text-white placeholder:text-slate-300 focus-visible:border-white focus-visible:outline-white/40"
        />
        {/* Busy, it keeps the focus (not `disabled`, which drops it) and ignores presses. */}
        <Button
          type="submit"
          variant="inverse"
          aria-disabled={submitting}
          aria-busy={submitting}
          className="min-w-28 focus-visible:outline-white"
        >
          {submitting ? (
            <>
              <Icon name="loader" className="size-4" />
              <span className="sr-only">Subscribing…</span>
            </>
          ) : (
            "Subscribe"
          )}
        </Button>
      </div>
      <PrivacyNote kind="newsletter" tone="dark" className="mt-2" />
    </ScriptForm>
  );
}
