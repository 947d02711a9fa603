// How to add Revwise to an authenticator app: the steps, the enrolment's QR code and its setup
// key (for whoever cannot scan), for the account page and the team workspace's first visit.
export function TotpSetupKey({ qrCode, secret }: { qrCode: string; secret: string }) {
  return (
    <>
      <ol className="grid list-decimal gap-2 pl-5 text-sm leading-6 text-slate-700">
        <li>Open your authenticator app and add an account.</li>
        <li>Scan the QR code, or type the setup key if you can't scan.</li>
        <li>Enter the 6-digit code the app shows for Revwise.</li>
      </ol>
      <div className="grid gap-4 sm:grid-cols-[auto_1fr] sm:items-center">
        <img
          src={qrCode}
          width={176}
          height={176}
          alt="QR code to add Revwise to your authenticator app"
          className="size-44 rounded-lg border border-border bg-white"
        />
        <div className="min-w-0">
          <p className="text-sm font-medium text-ink">Setup key</p>
          <code
            className="mt-1 block rounded-lg bg-muted px-3 py-2 font-mono text-sm break-all text-ink"
            data-testid="totp-secret"
          >
            {secret}
          </code>
        </div>
      </div>
    </>
  );
}
