// The Request Access dialog. Loaded when a Request Access button is first used.
import { Dialog, DialogContent, DialogDescription, DialogTitle } from "../components/ui/dialog.tsx";
import type { DialogProps } from "./lazy-dialog-button.tsx";
import { RequestAccessForm } from "./request-access-form.tsx";

export default function RequestAccessDialog({ open, onOpenChange, opener }: DialogProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent returnFocusTo={opener}>
        <DialogTitle>Request Access</DialogTitle>
        <DialogDescription>
          Tell us about you and your team. We'll set up your Revwise workspace and get back to you
          within one business day.
        </DialogDescription>
        <div className="mt-6">
          <RequestAccessForm onSuccess={() => onOpenChange(false)} />
        </div>
      </DialogContent>
    </Dialog>
  );
}
