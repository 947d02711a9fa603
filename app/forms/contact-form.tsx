// ContactForm (the lead issue wires it).
export function ContactForm() {
  return <form className="grid gap-4" aria-label="ContactForm" />;
}
