// A product mock-up picture. From 640 px up it is drawn whole, scaled to its box. Narrower, a
// scaled-down mock-up would shrink its text to a few pixels, so it is drawn at its own size and
// cropped to its focus (content/mockups.ts: the part that tells its story, which cuts no word),
// centred in its column; where the column is narrower than the focus, the focus is scaled down
// whole. The frame's size comes from CSS alone (app.css, .mockup-frame), so nothing shifts when
// the picture arrives. From 640 px up the frame lays out as if absent (display: contents).
import type { CSSProperties, ImgHTMLAttributes } from "react";
import { mockupFocus } from "../../content/mockups.ts";
import type { ImageRef } from "../../content/types.ts";
import { cn } from "../../lib/cn.ts";

type Props = Omit<ImgHTMLAttributes<HTMLImageElement>, "src" | "alt" | "width" | "height"> & {
  image: ImageRef;
};

export function Mockup({ image, className, ...rest }: Props) {
  const focus = mockupFocus(image);
  const phone = {
    "--picture-width": String(image.width),
    "--picture-height": String(image.height),
    "--focus-x": String(focus.x),
    "--focus-y": String(focus.y),
    "--focus-width": String(focus.width),
    "--focus-height": String(focus.height),
  } as CSSProperties;
  return (
    <span data-slot="mockup" className="mockup-frame" style={phone}>
      <img
        src={image.src}
        alt={image.alt}
        width={image.width}
        height={image.height}
        className={cn("mockup", className)}
        {...rest}
      />
    </span>
  );
}
