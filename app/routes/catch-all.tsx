import { redirect } from "react-router";

// Any unknown path redirects to /404.
export const loader = () => redirect("/404");
export const action = () => redirect("/404");
