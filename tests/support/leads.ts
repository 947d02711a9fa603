// A valid submission of each lead function, and the table it is stored in.
import { FUNCTIONS } from "../../common/functions.ts";

/** Per function: the table its leads land in and a body that passes validation (captcha aside). */
export const LEAD_FORMS = {
  [FUNCTIONS.requestAccess]: {
    table: "access_requests",
    body: {
      firstName: "Ada",
      lastName: "Lovelace",
      email: "ada@analytical.example",
      companyName: "Analytical Engines",
      companySize: "51-200",
      department: "Sales",
    },
  },
  [FUNCTIONS.contact]: {
    table: "contact_messages",
    body: {
      name: "Grace Hopper",
      email: "grace@navy.example",
      phone: "+1 (206) 555-0100",
      message: "Hello",
    },
  },
  [FUNCTIONS.requestDemo]: {
    table: "demo_form_requests",
    body: {
      name: "Tom Alvarez",
      email: "tom@lumen-freight.example",
      phone: "206 555 0199",
      company: "Lumen Freight",
      position: "VP Sales",
      website: "https://lumen.example",
    },
  },
} as const;
