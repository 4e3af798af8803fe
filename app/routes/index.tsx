import { redirect } from "react-router";

// '/' goes to the home screen inside the app layout (spec §2).
export const loader = () => redirect("/home");
