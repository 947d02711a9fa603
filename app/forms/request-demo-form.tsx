// RequestDemoForm (the lead issue wires it).
export function RequestDemoForm() {
  return <form className="grid gap-4" aria-label="RequestDemoForm" />;
}
