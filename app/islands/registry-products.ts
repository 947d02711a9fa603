// Islands of the products pages. Each entry: "name": () => import("…").then((m) => m.Component).
export const productIslands = {
  "product-carousel": () =>
    import("../components/products/product-carousel.tsx").then((m) => m.ProductCarousel),
  "product-tour": () =>
    import("../components/products/product-tour.tsx").then((m) => m.ProductTour),
};
