// A product mock-up picture. From 640 px up it is drawn whole, scaled to its box. Narrower, a
// scaled-down mock-up would shrink its text to a few pixels, so it is drawn at its own size and
// cropped to its focus (content/mockups.ts: the part that tells its story), at most MAX_PHONE_HEIGHT tall; the box's
// size comes from CSS alone, so nothing shifts when the picture arrives.
import type { CSSProperties, ImgHTMLAttributes } from "react";
import { mockupFocus } from "../../content/mockups.ts";
import type { ImageRef } from "../../content/types.ts";
import { cn } from "../../lib/cn.ts";

const MAX_PHONE_HEIGHT = 400;

type Props = Omit<ImgHTMLAttributes<HTMLImageElement>, "src" | "alt" | "width" | "height"> & {
  image: ImageRef;
};

export function Mockup({ image, className, style, ...rest }: Props) {
  const phone = {
    "--mockup-focus": mockupFocus(image.src),
    "--mockup-height": `${Math.min(image.height, MAX_PHONE_HEIGHT)}px`,
  } as CSSProperties;
  return (
    <img
      src={image.src}
      alt={image.alt}
      width={image.width}
      height={image.height}
      className={cn("mockup", className)}
      style={{ ...phone, ...style }}
      {...rest}
    />
  );
}
