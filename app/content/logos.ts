// Logos of the fictional customers shown under the hero and beside the testimonials.
import northwindAnalytics from "../assets/logos/northwind-analytics.svg";
import lumenFreight from "../assets/logos/lumen-freight.svg";
import brightpathHealth from "../assets/logos/brightpath-health.svg";
import kestrelRobotics from "../assets/logos/kestrel-robotics.svg";
import bluepeakCapital from "../assets/logos/bluepeak-capital.svg";
import orbitly from "../assets/logos/orbitly.svg";
import fernhillFoods from "../assets/logos/fernhill-foods.svg";
import atlasCloudworks from "../assets/logos/atlas-cloudworks.svg";
import type { Logo } from "./types.ts";

const size = { width: 160, height: 48 };

export const customerLogos: Logo[] = [
  { name: "Northwind Analytics", src: northwindAnalytics, ...size },
  { name: "Lumen Freight", src: lumenFreight, ...size },
  { name: "Brightpath Health", src: brightpathHealth, ...size },
  { name: "Kestrel Robotics", src: kestrelRobotics, ...size },
  { name: "Bluepeak Capital", src: bluepeakCapital, ...size },
  { name: "Orbitly", src: orbitly, ...size },
  { name: "Fernhill Foods", src: fernhillFoods, ...size },
  { name: "Atlas Cloudworks", src: atlasCloudworks, ...size },
];
