// The FAQ's highlighted first question: shown until the
// visitor dismisses it, for this visit only (the state lives in the component). An island: the
// card is prerendered; its code loads at the first sign of interaction. Without JavaScript the
// card stays, without its dismiss button.
import { useState } from "react";
import { Icon } from "../ui/icon.tsx";

type FaqHighlightProps = {
  question: string;
  answer: string;
  /** The element that receives focus once the card is gone (so focus is not lost). */
  focusAfterDismissId: string;
};

export function FaqHighlight({ question, answer, focusAfterDismissId }: FaqHighlightProps) {
  const [dismissed, setDismissed] = useState(false);
  if (dismissed) return null;

  const dismiss = () => {
    setDismissed(true);
    document.getElementById(focusAfterDismissId)?.focus({ preventScroll: true });
  };

  return (
    <section
      aria-labelledby="faq-highlight-title"
      className="relative isolate mb-12 overflow-hidden rounded-2xl bg-primary p-6 text-white shadow-lg shadow-indigo-900/20 sm:p-8"
    >
      <div
        aria-hidden="true"
        className="absolute -top-16 -right-10 -z-10 size-56 rounded-full bg-radial from-indigo-400/30 to-transparent to-70%"
      />
      <div
        aria-hidden="true"
        className="absolute -bottom-20 left-1/3 -z-10 size-48 rounded-full bg-radial from-teal-400/20 to-transparent to-70%"
      />
      <div className="flex items-start justify-between gap-4">
        <p className="inline-flex items-center gap-2 rounded-full bg-white/15 px-3 py-1 text-xs font-semibold tracking-wide uppercase">
          <Icon name="sparkles" className="size-4" />
          Start here
        </p>
        <button
          type="button"
          onClick={dismiss}
          aria-label="Dismiss the highlighted question"
          className="-mt-2 -mr-2 grid size-10 noscript:hidden shrink-0 place-items-center rounded-full text-indigo-100 transition-colors hover:bg-white/15 hover:text-white focus-visible:outline-white"
        >
          <Icon name="x" />
        </button>
      </div>
      <h2 id="faq-highlight-title" className="mt-4 text-2xl font-bold tracking-tight sm:text-3xl">
        {question}
      </h2>
      <p className="mt-3 max-w-2xl leading-7 text-indigo-50 sm:text-lg sm:leading-8">{answer}</p>
    </section>
  );
}
