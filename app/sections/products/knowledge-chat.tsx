// The static "Sales Knowledge Chat" mock of capture-, job- and sort-wise.
// No JavaScript: its "Start For Free" and "Try Live Demo" buttons do nothing (it is a preview), so they are
// marked aria-disabled and say "(preview)" to assistive technology.
import { Button } from "../../components/ui/button.tsx";
import { Icon } from "../../components/ui/icon.tsx";
import type { AssistantProduct, ChatTurn } from "../../content/types.ts";
import { WindowDots } from "./window-dots.tsx";

function Turn({ turn }: { turn: ChatTurn }) {
  if (turn.from === "user") {
    return (
      <li className="flex justify-end">
        <p className="max-w-[85%] rounded-2xl rounded-br-md bg-primary px-4 py-3 text-sm leading-6 text-white sm:max-w-[75%] sm:text-base sm:leading-7">
          <span className="sr-only">You: </span>
          {turn.text}
        </p>
      </li>
    );
  }
  return (
    <li className="flex items-start gap-3">
      <span
        aria-hidden="true"
        className="mt-1 hidden size-8 shrink-0 place-items-center rounded-full bg-accent text-white sm:grid"
      >
        <Icon name="sparkles" className="size-4" />
      </span>
      <div className="max-w-[92%] rounded-2xl rounded-tl-md border border-border bg-slate-50 px-4 py-3 sm:max-w-[80%]">
        <p className="text-sm leading-6 text-slate-800 sm:text-base sm:leading-7">
          <span className="sr-only">Revwise: </span>
          {turn.text}
        </p>
        {turn.sources && turn.sources.length > 0 && (
          <div className="mt-3 border-t border-border pt-3">
            <p className="text-xs font-semibold tracking-wide text-slate-600 uppercase">Sources</p>
            <ol className="mt-2 flex flex-wrap gap-2">
              {turn.sources.map((source, i) => (
                <li
                  key={source}
                  className="inline-flex items-center gap-1.5 rounded-md border border-border bg-white px-2 py-1 text-xs text-slate-700"
                >
                  <span
                    aria-hidden="true"
                    className="grid size-4 place-items-center rounded bg-secondary text-[10px] font-bold text-primary"
                  >
                    {i + 1}
                  </span>
                  {source}
                </li>
              ))}
            </ol>
          </div>
        )}
      </div>
    </li>
  );
}

export function KnowledgeChat({ product }: { product: AssistantProduct }) {
  return (
    <div className="mx-auto max-w-4xl">
      <div className="overflow-hidden rounded-2xl border border-border bg-white text-left shadow-xl shadow-indigo-950/10">
        <div className="flex items-center gap-3 border-b border-border bg-white px-4 py-3 sm:px-6 sm:py-4">
          <span
            aria-hidden="true"
            className="grid size-9 place-items-center rounded-xl bg-primary text-white"
          >
            <Icon name="message" className="size-5" />
          </span>
          <div className="min-w-0">
            <h2 className="text-base font-semibold text-ink sm:text-lg">Sales Knowledge Chat</h2>
            <p className="text-xs text-slate-600 sm:text-sm">{product.name}</p>
          </div>
          <WindowDots className="ml-auto hidden sm:flex" />
        </div>

        <div className="space-y-6 px-4 py-5 sm:px-6 sm:py-6">
          <div>
            <p className="text-xs font-semibold tracking-wide text-slate-600 uppercase">
              Suggested questions
            </p>
            <ul className="mt-2 flex flex-wrap gap-2">
              {product.chat.suggestions.map((suggestion) => (
                <li
                  key={suggestion}
                  className="rounded-full border border-indigo-200 bg-secondary px-3 py-1.5 text-xs font-medium text-secondary-foreground sm:text-sm"
                >
                  {suggestion}
                </li>
              ))}
            </ul>
          </div>
          <ol aria-label="Conversation" className="space-y-5">
            {product.chat.turns.map((turn) => (
              <Turn key={turn.text} turn={turn} />
            ))}
          </ol>
        </div>

        <div
          aria-hidden="true"
          className="border-t border-border bg-slate-50 px-4 py-3 sm:px-6 sm:py-4"
        >
          <div className="flex items-center gap-3 rounded-xl border border-input bg-white py-2 pr-2 pl-4 shadow-xs">
            <span className="flex-1 truncate text-sm text-slate-500">Ask about any account…</span>
            <span className="grid size-9 place-items-center rounded-lg bg-primary text-white">
              <Icon name="send" className="size-4" />
            </span>
          </div>
        </div>
      </div>

      <div className="mx-auto mt-8 flex max-w-xs flex-col gap-3 sm:max-w-none sm:flex-row sm:justify-center">
        <Button type="button" size="lg" aria-disabled="true" className="w-full sm:w-auto">
          Start For Free
          <span className="sr-only"> (preview)</span>
        </Button>
        <Button
          type="button"
          size="lg"
          variant="outline"
          aria-disabled="true"
          className="w-full sm:w-auto"
        >
          <Icon name="play" />
          Try Live Demo
          <span className="sr-only"> (preview)</span>
        </Button>
      </div>
    </div>
  );
}
