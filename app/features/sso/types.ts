/** What the sign-in screen learns about single sign-on (GET /api/auth/sso). */
export interface SsoConfig {
  enabled: boolean;
  /** The provider's name: "Sign in with <name>". */
  name: string;
  /** Password sign-in is refused for everyone but the owner. */
  required: boolean;
}

/** A first sign-in with the provider: the account is created once the browser has made its keys. */
export interface SsoSignUpOffer {
  ticket: string;
  email: string;
  username: string;
}

/** A provider account whose email a password account has: its password, once, links the two. */
export interface SsoLinkOffer {
  ticket: string;
  email: string;
}

/** The admin console's view of the settings (the client secret never comes back). */
export interface SsoSettings {
  issuer: string;
  client_id: string;
  client_secret_set: boolean;
  name: string;
  username_claim: string;
  allowed_domains: string;
  required: boolean;
  enabled: boolean;
}
