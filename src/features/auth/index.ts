/** What other features may use of the auth feature: the sign-in and registration modals. */
export { LoginModal } from "./components/LoginModal";
export { RegisterModal } from "./components/RegisterModal";
