import { createContext, useContext } from "react";

/** The per-request Content-Security-Policy nonce (empty in the browser, where it is not needed). */
export const NonceContext = createContext("");
export const useNonce = () => useContext(NonceContext);
