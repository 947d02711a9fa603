// SignInForm (the lead issue wires it).
export function SignInForm() {
  return <form className="grid gap-4" aria-label="SignInForm" />;
}
