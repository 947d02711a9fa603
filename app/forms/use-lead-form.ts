// What the captcha-protected lead forms share: react-hook-form with the shared zod schema
// (validate on submit, re-validate on change), the captcha, the honeypot and the submission.
import { zodResolver } from "@hookform/resolvers/zod";
import { useRef, useState } from "react";
import { useForm, type DefaultValues, type FieldValues, type Path } from "react-hook-form";
import type { z } from "zod";
import { CAPTCHA_FAILED, HONEYPOT_FIELD } from "../../common/leads.ts";
import type { CaptchaHandle } from "./captcha.tsx";
import { invokeLeadFunction } from "../lib/lead-functions.ts";
import { toast, type ToastData } from "../lib/toast.ts";

type Message = Pick<ToastData, "title" | "description">;

/** The captcha must be ticked before access and contact requests. */
const CAPTCHA_REQUIRED: Message = {
  title: "Captcha Required",
  description: CAPTCHA_FAILED,
};

export function useLeadForm<Input extends FieldValues, Output extends FieldValues>(opts: {
  schema: z.ZodType<Output, Input>;
  defaults: DefaultValues<Input>;
  fn: string;
  success: Message;
  failure: Message;
  onSuccess?: () => void;
}) {
  const form = useForm<Input, unknown, Output>({
    resolver: zodResolver(opts.schema),
    defaultValues: opts.defaults,
    mode: "onSubmit",
    reValidateMode: "onChange",
  });
  const [captcha, setCaptcha] = useState<string | null>(null);
  const captchaRef = useRef<CaptchaHandle>(null);
  const honeypotRef = useRef<HTMLInputElement>(null);

  const submit = async (values: Output) => {
    if (!captcha) return;
    const honeypot = honeypotRef.current?.value;
    const result = await invokeLeadFunction(opts.fn, {
      ...values,
      captcha,
      ...(honeypot ? { [HONEYPOT_FIELD]: honeypot } : {}),
    });
    if (result.ok) {
      form.reset();
      captchaRef.current?.reset();
      toast(opts.success);
      opts.onSuccess?.();
      return;
    }
    if (result.code === "captcha_failed") captchaRef.current?.reset();
    for (const [field, message] of Object.entries(result.fields ?? {})) {
      if (opts.defaults && field in opts.defaults) form.setError(field as Path<Input>, { message });
    }
    toast({ variant: "destructive", ...opts.failure });
  };
  const onSubmit = (event?: React.BaseSyntheticEvent) => {
    // Said whatever the fields hold, whose own messages show under them as well.
    if (!captcha) toast({ variant: "destructive", ...CAPTCHA_REQUIRED });
    return form.handleSubmit(submit)(event);
  };

  return {
    form,
    onSubmit,
    captcha,
    setCaptcha,
    captchaRef,
    honeypotRef,
    submitting: form.formState.isSubmitting,
  };
}
