// Islands of the home pages. Each entry: "name": () => import("…").then((m) => m.Component).
export const homeIslands = {
  "feature-carousel": () =>
    import("../components/home/feature-carousel.tsx").then((m) => m.FeatureCarousel),
  "autopilot-carousel": () =>
    import("../components/home/autopilot-carousel.tsx").then((m) => m.AutopilotCarousel),
  testimonials: () =>
    import("../components/home/testimonial-rotator.tsx").then((m) => m.TestimonialRotator),
};
