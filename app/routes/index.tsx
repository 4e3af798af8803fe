import { redirect } from "@remix-run/node";

// '/' goes to the home screen inside the app layout (spec §2).
export const loader = () => redirect("/home");
