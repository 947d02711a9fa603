// A valid submission of each lead function and the table it is stored in; the messages of the
// forms' refused fields.
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

/** The message each Request Access field shows when its value is refused (none left valid). */
export const REQUEST_ACCESS_MESSAGES = {
  firstName: "First name must be at least 2 characters",
  lastName: "Last name must be at least 2 characters",
  email: "Please enter a valid email address",
  companyName: "Company name must be at least 2 characters",
  companySize: "Please select a company size",
  department: "Please select a department",
};

/** The message each required Request Demo field shows when it is empty or invalid. */
export const REQUEST_DEMO_MESSAGES = {
  name: "Name is required",
  email: "Invalid email address",
  phone: "Phone number is required",
  company: "Company name is required",
  position: "Position is required",
};
