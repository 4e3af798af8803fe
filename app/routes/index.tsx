import { redirect } from "react-router";

// '/' goes to the home screen inside the app layout.
export const loader = () => redirect("/home");
