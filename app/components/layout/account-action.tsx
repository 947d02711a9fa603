// The header's account button: Request Access for visitors (the accounts work adds Logout).
import { RequestAccessButton } from "../../forms/request-access-button.tsx";

export function AccountAction({ size }: { size?: "default" | "lg" }) {
  return <RequestAccessButton size={size} />;
}
