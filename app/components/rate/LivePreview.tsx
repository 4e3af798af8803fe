// The rate form's price, computed from what is typed. Loaded as a chunk of its own: the pricing
// rule it runs (domain/pricing.ts with the time-of-use bands) is a third of the form's weight, and
// the page's first load does not need it — the server renders the preview into the page, and the
// browser hydrates this part once the chunk arrives (React.lazy inside Suspense).
import { PricePreview } from "./PricePreview";
import { computePreview, type PreviewClock } from "./preview";

export default function LivePreview({ values, clock }: { values: Record<string, unknown>; clock?: PreviewClock }) {
  return <PricePreview preview={computePreview(values, clock)} />;
}
