// The way out of the account pages: back to the site, or Logout.
import { signOut } from "../../lib/session.ts";
import { Button } from "../ui/button.tsx";

export function SiteAndLogout({ size }: { size?: "default" | "lg" }) {
  return (
    <>
      <Button asChild size={size} variant="outline">
        <a href="/">Back to the site</a>
      </Button>
      <Button type="button" variant="ghost" onClick={() => void signOut()}>
        Logout
      </Button>
    </>
  );
}
