/** The account's form limits, shared by the sign-up form and the auth routes' schemas. */
export const MIN_PASSWORD_LENGTH = 8;
export const USERNAME_PATTERN = /^[A-Za-z0-9_.-]{3,32}$/;
