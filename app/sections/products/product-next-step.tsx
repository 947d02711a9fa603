// The closing call to action of the product pages and articles: Book Demo, with the product tour
// beside it.
import { productNextStep } from "../../content/products.ts";
import { CtaBand } from "../pages/cta-band.tsx";

export function ProductNextStep({ name }: { name: string }) {
  return (
    <CtaBand
      title={productNextStep.title(name)}
      text={productNextStep.text}
      secondary={productNextStep.tour}
    />
  );
}
