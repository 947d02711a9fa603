import { clsx, type ClassValue } from "clsx";
import { twMerge } from "tailwind-merge";

/** Joins class names; a later Tailwind class wins over an earlier one (the caller's class wins). */
export function cn(...inputs: ClassValue[]) {
  return twMerge(clsx(inputs));
}
