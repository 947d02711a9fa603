// The account page's email change: the server emails a link and a code to the new address and to
// the current one; the change happens when both are used, links or codes in any mix (the links
// come back to the account page; the codes are entered here, one field per address). A person
// without an address yet (a phone account) confirms the new one only. A change asked for earlier
// and not confirmed yet (the user's `new_email`) shows with its code fields when the page opens,
// after a reload or on another device too.
import { zodResolver } from "@hookform/resolvers/zod";
import { useEffect, useId, useRef, useState } from "react";
import { useForm } from "react-hook-form";
import { emailChangeSchema } from "../../common/accounts.ts";
import { Button } from "../components/ui/button.tsx";
import { Icon } from "../components/ui/icon.tsx";
import { verifyEmailCode } from "../lib/account.ts";
import { EmailField } from "./form-fields.tsx";
import { ScriptForm } from "./script-form.tsx";
import { getSupabase } from "../lib/supabase.ts";
import { errorToast, toast } from "../lib/toast.ts";
import { CodeForm } from "./code-form.tsx";
import { Address } from "../components/ui/address.tsx";

const updated = () =>
  toast({
    title: "Email address updated",
    description: "Your account now uses your new email address.",
  });

/** A change waiting for its codes: the addresses they went to, and those already confirmed here. */
type Pending = {
  newEmail: string;
  to: string[];
  confirmed: string[];
  /** Shown as the page opened (asked for earlier): its first field does not take the focus. */
  restored?: boolean;
};

export function EmailChangeForm({
  email,
  pendingEmail,
  onChanged,
}: {
  email: string;
  /** The address a change asked for earlier waits to be confirmed for (the user's `new_email`). */
  pendingEmail?: string;
  /** The change is done: the account reads the person again (their new address). */
  onChanged: () => void;
}) {
  const [pending, setPending] = useState<Pending | null>(() =>
    pendingEmail
      ? {
          newEmail: pendingEmail,
          to: email ? [pendingEmail, email] : [pendingEmail],
          confirmed: [],
          restored: true,
        }
      : null,
  );
  const form = useForm<{ email: string }>({
    resolver: zodResolver(emailChangeSchema),
    defaultValues: { email: "" },
  });
  // The form back in place of the codes (the change done, or given up) takes the focus to its field.
  const [returned, setReturned] = useState(false);
  useEffect(() => {
    if (returned && !pending) form.setFocus("email");
  }, [returned, pending, form]);
  const back = () => {
    setPending(null);
    setReturned(true);
  };

  const onSubmit = form.handleSubmit(async (values) => {
    if (values.email === email.toLowerCase()) {
      form.setError("email", { message: "That's already your email address." });
      return;
    }
    const supabase = await getSupabase();
    const { data, error } = await supabase.auth.updateUser(
      { email: values.email },
      { emailRedirectTo: `${window.location.origin}/account` },
    );
    if (error) return errorToast(error);
    form.reset();
    // Applied at once (nothing to confirm): the account shows it.
    if (!data.user.new_email) {
      updated();
      return onChanged();
    }
    const to = email ? [values.email, email] : [values.email];
    toast({
      title: to.length === 2 ? "Check both inboxes" : "Check your inbox",
      description:
        to.length === 2
          ? `Open the links we sent to ${values.email} and to ${email}, or enter their codes here, to complete the change.`
          : `Open the link we sent to ${values.email}, or enter its code here, to complete the change.`,
    });
    setPending({ newEmail: values.email, to, confirmed: [] });
  });

  if (pending) {
    return (
      <EmailChangeCodes
        pending={pending}
        onConfirmed={(address) =>
          setPending((now) => now && { ...now, confirmed: [...now.confirmed, address] })
        }
        onChanged={() => {
          updated();
          back();
          onChanged();
        }}
        onCancel={back}
      />
    );
  }

  const { errors, isSubmitting } = form.formState;
  return (
    <ScriptForm
      onSubmit={onSubmit}
      label="Change your email"
      className="grid gap-4 sm:grid-cols-[1fr_auto] sm:items-end"
    >
      <EmailField form={form} name="email" label="New email address" />
      <Button
        type="submit"
        variant="outline"
        aria-disabled={isSubmitting}
        className={errors.email ? "sm:mb-7" : undefined}
      >
        {isSubmitting ? "Sending..." : "Change email"}
      </Button>
    </ScriptForm>
  );
}

/**
 * One code field per address the change was sent to. The first code used (or link opened) counts
 * for its address, which then says so, and the focus goes to the other address's field; the last
 * one makes the change.
 */
function EmailChangeCodes({
  pending,
  onConfirmed,
  onChanged,
  onCancel,
}: {
  pending: Pending;
  onConfirmed: (address: string) => void;
  onChanged: () => void;
  onCancel: () => void;
}) {
  const descriptionId = useId();
  const fields = useRef<HTMLDivElement>(null);
  const confirmedCount = pending.confirmed.length;
  useEffect(() => {
    if (confirmedCount > 0) fields.current?.querySelector("input")?.focus();
  }, [confirmedCount]);
  const open = pending.to.filter((address) => !pending.confirmed.includes(address));
  return (
    <div className="grid gap-4">
      <p id={descriptionId} className="text-sm leading-6 text-slate-700">
        {pending.to.length === 2
          ? "We've emailed a link and a 6-digit code to each address. Open both links, or enter both codes here, to move your account to "
          : "We've emailed a link and a 6-digit code to your new address. Open the link, or enter the code here, to move your account to "}
        <Address>{pending.newEmail}</Address>.
      </p>
      {/* Always in the page, so that each address confirmed is announced. */}
      <p role="status" className="sr-only">
        {pending.confirmed.length ? `Code accepted: ${pending.confirmed.at(-1)} is confirmed.` : ""}
      </p>
      {pending.confirmed.map((address) => (
        <p key={address} className="flex items-center gap-2 text-sm text-slate-700">
          <Icon name="check" className="size-4 shrink-0 text-primary" />
          <span>
            <Address>{address}</Address> confirmed.
          </span>
        </p>
      ))}
      <div ref={fields} className="grid gap-6">
        {open.map((address, i) => (
          <CodeForm
            key={address}
            name={`Code sent to ${address}`}
            label={`6-digit code sent to ${address}`}
            describedBy={descriptionId}
            autoFocus={i === 0 && confirmedCount === 0 && !pending.restored}
            submitLabel="Confirm"
            onCode={async (code) => {
              const result = await verifyEmailCode(address, code, "email_change");
              if ("error" in result) return result.error;
              // A session: the change is made. None: this address counts, the other is awaited.
              if (result.session) onChanged();
              else onConfirmed(address);
              return null;
            }}
          />
        ))}
      </div>
      <Button type="button" variant="ghost" className="justify-self-start" onClick={onCancel}>
        Use a different address
      </Button>
    </div>
  );
}
