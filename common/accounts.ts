// Account forms' schemas (the server applies the full password policy on top).
import "./zod-config.ts";
import { z } from "zod";
import { storableString } from "./storable-text.ts";

export const MIN_PASSWORD_LENGTH = 8;

export const newPasswordSchema = z
  .object({
    password: storableString().min(
      MIN_PASSWORD_LENGTH,
      `Password should be at least ${MIN_PASSWORD_LENGTH} characters.`,
    ),
    confirm: z.string(),
  })
  .refine((v) => v.password === v.confirm, {
    path: ["confirm"],
    message: "The two passwords do not match.",
  });
